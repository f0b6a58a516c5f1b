import { describe, expect, expectTypeOf, it } from "vitest";
import { createAgent, createCustomMessage, createEntry, createMemoryStorage, type AgentMessage } from "@yesimagent/core";
import type { IshikiEvent, IshikiMessageCreated } from "../src/types/index.js";
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
