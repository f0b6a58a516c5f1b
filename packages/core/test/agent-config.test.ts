import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { jsonSchema, tool } from "ai";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createAgent,
  createAssistantMessage,
  createCustomMessage,
  createEntry,
  createJsonlStorage,
  createMemoryStorage,
  createSystemMessage,
  createToolMessage,
  createUserMessage,
  type AgentEntry,
  type AgentMessage,
  type AgentStorage,
} from "../src/index.js";
import { deferred, promptTexts, recordEvents, retraction, scriptedModel, tempDir } from "./agent-support.js";

describe("messages and config", () => {
  it("AG-3 factories fill id and timestamp; assistant keeps usage, finishReason, providerOptions; custom carries type and data", () => {
    const user = createUserMessage("hi");
    expect(user).toEqual({ id: expect.any(String), timestamp: expect.any(Number), role: "user", content: "hi" });
    expect(createSystemMessage("s", { id: "fixed", timestamp: 1 })).toEqual({ id: "fixed", timestamp: 1, role: "system", content: "s" });
    const assistant = createAssistantMessage("a", { finishReason: "stop", providerOptions: { p: { x: 1 } } });
    expect(assistant).toMatchObject({ role: "assistant", content: "a", finishReason: "stop", providerOptions: { p: { x: 1 } } });
    expect(Object.keys(createToolMessage([]))).toEqual(["id", "timestamp", "role", "content"]);
    const note = createCustomMessage("test.retraction", retraction("m1"));
    expect(note).toMatchObject({ role: "custom", type: "test.retraction", data: { messageId: "m1" } });
    expect(createUserMessage("a").id).not.toBe(createUserMessage("a").id);
  });

  it("AG-2 entry types include message, event, state and augmented custom types", () => {
    const entry = createEntry("state", { version: 1 });
    expectTypeOf(entry.type).toEqualTypeOf<"state">();
    expectTypeOf<AgentEntry["type"]>().toMatchTypeOf<string>();
    expectTypeOf<"message" | "event" | "state">().toMatchTypeOf<AgentEntry["type"]>();
    expectTypeOf(createCustomMessage("test.retraction", retraction("m1"))).toMatchTypeOf<AgentMessage>();
    expect(entry.type).toBe("state");
  });

  it("AG-15 defaults: a UUID id, maxSteps at least 1, initial state { version: 1 }", async () => {
    const echo = tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => "e" });
    const agent = createAgent({ model: scriptedModel([{ calls: [{ id: "c", name: "echo" }] }]), tools: { echo }, maxSteps: 0 });
    expect(agent.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(createAgent({ model: scriptedModel([]), id: "fixed" }).id).toBe("fixed");
    const events = recordEvents(agent);
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(events.filter((e) => e.type === "turn.step")).toHaveLength(1);
    expect(agent.state.get()).toEqual({ version: 1 });
  });

  it("AG-11 agent.storage runs writes in call order, reads after them, updates memory, and skips onAppend and message.appended", async () => {
    const release = deferred();
    const inner = createMemoryStorage();
    let first = true;
    const slow: AgentStorage = {
      ...inner,
      append: async (...entries) => {
        if (first) {
          first = false;
          await release.promise;
        }
        return inner.append(...entries);
      },
    };
    let onAppendCalls = 0;
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({ model, storage: slow, plugins: [{ name: "count", onAppend: () => void onAppendCalls++ }] });
    const events = recordEvents(agent);
    const a = agent.storage.append(createEntry("message", createUserMessage("direct a")));
    const failing = agent.storage.append({ bogus: true } as unknown as AgentEntry);
    const b = agent.storage.append(createEntry("message", createUserMessage("direct b")));
    const reading = agent.storage.read();
    release.resolve();
    await Promise.all([a, b, failing]);
    expect((await reading).map((e) => (e.type === "message" && "content" in e.data && typeof e.data.content === "string" ? e.data.content : "?"))).toEqual(["direct a", "?", "direct b"]);
    expect(onAppendCalls).toBe(0);
    expect(events.filter((e) => e.type === "message.appended")).toHaveLength(0);
    agent.continue();
    await agent.wait();
    expect(promptTexts(model.prompts[0])).toEqual(expect.arrayContaining(["user:direct a", "user:direct b"]));
  });

  it("AG-10 loading is not replay: a turn cut off by a crash is not resumed and no tool re-runs", async () => {
    const { dir, dispose } = await tempDir();
    try {
      const path = join(dir, "events.jsonl");
      const lines = [
        createEntry("event", { type: "turn.start", turnId: "t1" }, { turnId: "t1" }),
        createEntry("message", createUserMessage("do it"), { turnId: "t1" }),
        createEntry("message", createAssistantMessage([{ type: "tool-call", toolCallId: "c1", toolName: "effect", input: {} }]), { turnId: "t1" }),
      ];
      await writeFile(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
      let effects = 0;
      const effect = tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => (effects++, "done") });
      const model = scriptedModel([{ text: "ok" }]);
      const agent = createAgent({ model, storage: createJsonlStorage(path), tools: { effect } });
      await agent.init();
      await agent.wait();
      expect(agent.isIdle()).toBe(true);
      expect(model.prompts).toHaveLength(0);
      expect(effects).toBe(0);
    } finally {
      await dispose();
    }
  });
});
