import { afterEach, describe, expect, it, vi } from "vitest";
import { HermesToolcallEngine } from "../src/engines/toolcall/text-protocol.js";
import { channel, startActive, type KernelApp } from "./runtime-app.js";

// A build where the parser cannot load: importing it throws.
vi.mock("@ai-sdk-tool/parser", () => {
  throw new Error("Cannot find module '@ai-sdk-tool/parser'");
});

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

describe("text protocol parser loading (KP-39)", () => {
  it("KP-39 EN-40 a parser that cannot load fails only the activation of profiles using it, with a one-line error", async () => {
    kernel = await startActive("plain", {
      profiles: {
        plain: { model: "mock:m", channels: { "mock:bot": ["c1"] } },
        text: { model: "mock:m", channels: { "mock:bot": ["c2"] }, toolcall: { engine: "hermes" } },
      },
    });
    const failure = /toolcall\.hermes: @ai-sdk-tool\/parser cannot load: [^\n]+; use toolcall\.engine: native/;
    expect(kernel.logs.some(([type, line]) => type === "error" && failure.test(line))).toBe(true);
    expect(kernel.app.ishiki.profile("text")?.status).toBe("failed");
    await expect(kernel.app.ishiki.runtime("text", { ...channel, channelId: "c2" })).rejects.toThrow("profile is failed");
    // The engine's own load check gives the same one-line error.
    await expect((kernel.app.get("ishiki.engine.toolcall.hermes") as HermesToolcallEngine).loadParser()).rejects.toThrow(failure);
    const plain = await kernel.app.ishiki.runtime("plain", channel);
    plain.wake();
    await plain.agent.wait();
    expect(kernel.model.prompts).toHaveLength(1);
  });
});
