import { describe, expect, expectTypeOf, it } from "vitest";
import { createAgent, createCustomMessage, createEntry, createMemoryStorage, type AgentMessage } from "@yesimagent/core";
import { ishikiEntryChecks, type IshikiEvent, type IshikiMessageCreated } from "../src/types/index.js";
import { scriptedModel } from "../../core/test/agent-support.js";

describe("Ishiki custom messages (types/)", () => {
  it("AG-4 XA-23 IshikiEvent is the union of the four Ishiki custom messages, usable with the agent's factories", async () => {
    const created: IshikiMessageCreated = {
      timestamp: 1,
      platform: "onebot",
      selfId: "10",
      channelId: "#1",
      isDirect: false,
      messageId: "m1",
      content: 'hi <img src="asset://0123456789abcdef0123456789abcdef"/>',
      user: { id: "u1", name: "Alice" },
    };
    const message = createCustomMessage("ishiki.message.created", created);
    expectTypeOf(message).toMatchTypeOf<IshikiEvent>();
    expectTypeOf(message).toMatchTypeOf<AgentMessage>();
    expectTypeOf<IshikiEvent["type"]>().toEqualTypeOf<"ishiki.message.created" | "ishiki.message.deleted" | "ishiki.attachment" | "ishiki.tools.catalog">();
    const compact = createEntry("ishiki.compact", { summary: "s", lastEntryId: "e1" });
    expectTypeOf(compact.data).toEqualTypeOf<{ summary: string; lastEntryId: string }>();
    const storage = createMemoryStorage();
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage });
    agent.send(message, { trigger: false });
    await agent.wait();
    expect((await storage.read())[0]).toMatchObject({ type: "message", data: { role: "custom", type: "ishiki.message.created", data: created } });
  });
});

describe("Ishiki entry checks (types/entry-checks.ts, AG-7)", () => {
  const user = { id: "u1", name: "Alice" };
  const created: IshikiMessageCreated = { timestamp: 1, platform: "onebot", selfId: "10", channelId: "#1", isDirect: false, messageId: "m1", content: "hi", user };
  const item = { url: "asset://a", mediaType: "image/png", size: 3, lifetime: "recent", immutable: true } as const;
  const valid: Record<string, unknown[]> = {
    "ishiki.message.created": [created, { ...created, guildId: "g", quote: { id: "q", content: "c", user, channelId: "#1", guildId: "g" } }, { ...created, quote: { id: "q", content: "" } }],
    "ishiki.message.deleted": [{ timestamp: 1, platform: "onebot", selfId: "10", channelId: "#1", messageId: "m1" }, { timestamp: 1, platform: "onebot", selfId: "10", channelId: "#1", messageId: "m1", userId: "u", operatorId: "o" }],
    "ishiki.attachment": [
      { source: "tool", toolName: "read", toolCallId: "c", items: [item, { ...item, filename: "a.png", width: 1, height: 1, lifetime: "once" }] },
      { source: "platform", platform: "onebot", selfId: "10", channelId: "#1", messageId: "m1", items: [] },
    ],
    "ishiki.tools.catalog": [{ version: 1, kind: "delta", mode: "codemode", added: [{ name: "t", description: "d", signature: "t(): void" }], removed: ["x"], visible: ["t"], text: "..." }],
  };
  const invalid: Record<string, unknown[]> = {
    "ishiki.message.created": [null, { ...created, isDirect: "no" }, { ...created, guildId: 5 }, { ...created, quote: { id: "q" } }, { ...created, quote: { id: "q", content: "", user: { id: 1 } } }],
    "ishiki.message.deleted": [{ timestamp: "1", platform: "onebot", selfId: "10", channelId: "#1", messageId: "m1" }],
    "ishiki.attachment": [{ source: "tool", toolName: "read", toolCallId: "c", items: [{ ...item, lifetime: "forever" }] }, { source: "platform", items: [] }],
    "ishiki.tools.catalog": [{ version: 2, kind: "delta", mode: "codemode", added: [], removed: [], visible: [], text: "" }, { version: 1, kind: "delta", mode: "codemode", added: [], removed: [1], visible: [], text: "" }],
  };

  it("AG-7 accept every shape the plugin writes, optional fields present or not", () => {
    for (const [type, values] of Object.entries(valid)) for (const value of values) expect(ishikiEntryChecks.messages![type](value), type).toBeUndefined();
    expect(ishikiEntryChecks.entries!["ishiki.compact"]({ summary: "", lastEntryId: "e" })).toBeUndefined();
    expect(ishikiEntryChecks.entries!["ishiki.delivery"]({ turnId: "t", stepNumber: 0, items: [{ key: "k", url: "u", outcome: "terminal", decision: "d" }] })).toBeUndefined();
  });

  it("AG-7 name the field of a shape the engines could not read", () => {
    for (const [type, values] of Object.entries(invalid)) for (const value of values) expect(ishikiEntryChecks.messages![type](value), `${type} ${JSON.stringify(value)}`).toMatch(/\S/);
    expect(ishikiEntryChecks.messages!["ishiki.message.created"]({ ...created, user: { id: "u" } })).toBe("user name is not a string");
    expect(ishikiEntryChecks.entries!["ishiki.delivery"]({ turnId: "t", stepNumber: 0, items: [{ key: "k", url: "u", outcome: "lost" }] })).toBe("items [0] outcome is not one of shown, terminal, released");
  });
});
