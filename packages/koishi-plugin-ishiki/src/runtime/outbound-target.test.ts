import { describe, expect, it } from "vitest";
import { outboundTarget } from "./outbound-target.js";
import { encodeSegment, runtimeHomeOf, runtimeIdOf } from "./runtime-address.js";

describe("runtime addresses (KP-14, KP-15) and send targets (KP-30, KP-32)", () => {
  it("runtime ids and homes per mode", () => {
    const domain = { mode: "channel" as const, platform: "sandbox:x", selfId: "bot", channelId: "private:42", isDirect: true };
    expect(runtimeIdOf("p", domain)).toBe("p/sandbox:x:bot/private:42");
    expect(runtimeHomeOf("/r", domain)).toBe("/r/runtimes/sandbox%3Ax%3Abot/private%3A42");
    expect(runtimeIdOf("p", { mode: "cross", accounts: {} })).toBe("p/main");
    expect(runtimeHomeOf("/r", { mode: "cross", accounts: {} })).toBe("/r/runtimes/main");
  });

  it("segment encoding is injective and bounded", () => {
    expect(encodeSegment("a%3A")).toBe("a%253A");
    expect(encodeSegment(".hidden ")).toBe("%2Ehidden%20");
    const long = encodeSegment("x".repeat(200));
    expect(long).toMatch(/^x{100}~[0-9a-f]{16}$/);
    expect(encodeSegment("x".repeat(201))).not.toBe(long);
  });

  it("channel mode sends to its own channel; cross mode checks the target against the claims", () => {
    expect(outboundTarget({ mode: "channel", platform: "qq", selfId: "1", channelId: "g", guildId: "g", isDirect: false }, undefined)).toEqual({ platform: "qq", selfId: "1", channelId: "g", guildId: "g" });
    const cross = { mode: "cross" as const, accounts: { "sandbox:*:bot": ["g*", "!gx"] } };
    expect(outboundTarget(cross, { sid: "sandbox:abc:bot", channelId: "g1" })).toEqual({ platform: "sandbox:abc", selfId: "bot", channelId: "g1" });
    expect(() => outboundTarget(cross, { sid: "sandbox:abc:bot", channelId: "gx" })).toThrow("target sandbox:abc:bot/gx is outside this profile's channels");
    expect(() => outboundTarget(cross, undefined)).toThrow("target is required in cross mode");
  });
});
