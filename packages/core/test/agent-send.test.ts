import { describe, expect, it } from "vitest";
import {
  AgentBusyError,
  AgentRuntimeError,
  createAgent,
  createMemoryStorage,
  createUserMessage,
  type AgentEntry,
  type AgentStorage,
} from "../src/index.js";
import { deferred, heldReply, promptTexts, recordEvents, recordingLogger, scriptedModel } from "./agent-support.js";
import { jsonSchema, tool } from "ai";

const echo = tool({ inputSchema: jsonSchema<{ x?: number }>({ type: "object" }), execute: async () => "done" });

/** Message contents in storage order, with their turnId. */
async function stored(storage: AgentStorage): Promise<string[]> {
  return (await storage.read()).map((entry: AgentEntry) =>
    entry.type === "message" ? `${"content" in entry.data && typeof entry.data.content === "string" ? entry.data.content : entry.data.role}${entry.turnId ? "" : "(no turn)"}` : entry.type === "event" ? entry.data.type : entry.type,
  );
}

describe("send decision table (AG-18)", () => {
  it("AG-18 accepting, untriggered join: persisted after the step's batch and seen by the next step", async () => {
    const gate = heldReply({ calls: [{ id: "c1", name: "echo" }] });
    const model = scriptedModel([gate.reply, { text: "bye" }]);
    const storage = createMemoryStorage();
    const agent = createAgent({ model, storage, tools: { echo } });
    agent.send(createUserMessage("hi"));
    await gate.entered;
    expect(agent.send(createUserMessage("joined"), { trigger: false, ifBusy: "join" })).toBeUndefined();
    gate.release();
    await agent.wait();
    expect(await stored(storage)).toEqual(["turn.start", "hi", "assistant", "tool", "joined", "assistant", "turn.done"]);
    expect(promptTexts(model.prompts[1])).toContain("user:joined");
    expect(promptTexts(model.prompts[0])).not.toContain("user:joined");
  });

  it("AG-18 accepting, untriggered defer and reject: persisted at the turn tail, seen by no step of it", async () => {
    const gate = heldReply({ calls: [{ id: "c1", name: "echo" }] });
    const model = scriptedModel([gate.reply, { text: "bye" }]);
    const storage = createMemoryStorage();
    const agent = createAgent({ model, storage, tools: { echo } });
    agent.send(createUserMessage("hi"));
    await gate.entered;
    expect(agent.send(createUserMessage("deferred"), { trigger: false })).toBeUndefined();
    expect(agent.send(createUserMessage("rejected"), { trigger: false, ifBusy: "reject" })).toBeUndefined();
    gate.release();
    await agent.wait();
    expect(await stored(storage)).toEqual(["turn.start", "hi", "assistant", "tool", "assistant", "deferred", "rejected", "turn.done"]);
    expect(model.prompts.flatMap(promptTexts).filter((t) => t.includes("deferred") || t.includes("rejected"))).toEqual([]);
  });

  it("AG-18 accepting, triggered join: returns the active turn id, queues nothing", async () => {
    const gate = heldReply({ calls: [{ id: "c1", name: "echo" }] });
    const model = scriptedModel([gate.reply, { text: "bye" }]);
    const agent = createAgent({ model, tools: { echo } });
    const events = recordEvents(agent);
    const turnId = agent.send(createUserMessage("hi"));
    await gate.entered;
    expect(agent.send(createUserMessage("more"), { ifBusy: "join" })).toBe(turnId);
    gate.release();
    await agent.wait();
    expect(events.filter((e) => e.type === "turn.queued")).toHaveLength(1);
    expect(events.filter((e) => e.type === "turn.start")).toHaveLength(1);
    expect(promptTexts(model.prompts[1])).toContain("user:more");
  });

  it("AG-18 accepting, triggered defer: a new turn, never merged, whose step 0 persists the message", async () => {
    const gate = heldReply({ text: "one" });
    const model = scriptedModel([gate.reply, { text: "two" }]);
    const storage = createMemoryStorage();
    const agent = createAgent({ model, storage });
    const first = agent.send(createUserMessage("hi"));
    await gate.entered;
    const second = agent.send(createUserMessage("later"));
    expect(second).toBeTypeOf("string");
    expect(second).not.toBe(first);
    gate.release();
    await agent.wait();
    const entries = await storage.read();
    const later = entries.find((e) => e.type === "message" && e.data.role === "user" && e.data.content === "later");
    expect(later?.turnId).toBe(second);
    expect(await stored(storage)).toEqual(["turn.start", "hi", "assistant", "turn.done", "turn.start", "later", "assistant", "turn.done"]);
  });

  it("AG-18 AG-19 triggered reject throws AgentBusyError whenever not idle and records nothing", async () => {
    const gate = heldReply({ text: "one" });
    const model = scriptedModel([gate.reply]);
    const storage = createMemoryStorage();
    const agent = createAgent({ model, storage });
    agent.send(createUserMessage("hi"));
    // Queued but not yet running: not idle, so reject throws already.
    expect(() => agent.send(createUserMessage("no"), { ifBusy: "reject" })).toThrow(AgentBusyError);
    expect(() => agent.send(createUserMessage("no"), { ifBusy: "reject" })).toThrow("Agent is busy");
    gate.release();
    await agent.wait();
    expect(await stored(storage)).not.toContain("no");
    // Idle: a triggered reject simply opens a turn.
    expect(agent.send(createUserMessage("fine"), { ifBusy: "reject" })).toBeTypeOf("string");
    await agent.wait();
  });

  it("AG-18 AG-19 not accepting while sealing: untriggered sends persist now without turnId; triggered reject throws", async () => {
    const storage = createMemoryStorage();
    const agent = createAgent({ model: scriptedModel([{ text: "one" }]), storage });
    let sendsDuringSeal: (() => void) | undefined;
    agent.channel.subscribe("agent", (event) => {
      if (event.type === "turn.done") sendsDuringSeal?.();
    });
    let thrown: unknown;
    sendsDuringSeal = () => {
      sendsDuringSeal = undefined;
      expect(agent.getActiveTurnId()).toBeNull();
      expect(agent.send(createUserMessage("record"), { trigger: false, ifBusy: "join" })).toBeUndefined();
      try {
        agent.send(createUserMessage("busy"), { ifBusy: "reject" });
      } catch (error) {
        thrown = error;
      }
    };
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(thrown).toBeInstanceOf(AgentBusyError);
    const entries = await storage.read();
    const record = entries.find((e) => e.type === "message" && e.data.role === "user" && e.data.content === "record");
    expect(record).toBeDefined();
    expect(record?.turnId).toBeUndefined();
  });

  it("AG-18 AG-22 idle, triggered: queued synchronously, pump started, turn.queued before turn.start", async () => {
    const agent = createAgent({ model: scriptedModel([{ text: "hey" }]) });
    const events = recordEvents(agent);
    expect(agent.isIdle()).toBe(true);
    const turnId = agent.send(createUserMessage("hi"), { ifBusy: "join" });
    expect(agent.isIdle()).toBe(false);
    await agent.wait();
    const types = events.filter((e) => "turnId" in e && e.turnId === turnId).map((e) => e.type);
    expect(types.indexOf("turn.queued")).toBeLessThan(types.indexOf("turn.start"));
    expect(types[0]).toBe("turn.queued");
  });

  it("AG-14 the same message object submitted twice is persisted once", async () => {
    const storage = createMemoryStorage();
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage });
    const message = createUserMessage("once");
    agent.send(message, { trigger: false });
    agent.send(message, { trigger: false });
    await agent.wait();
    agent.send(message);
    await agent.wait();
    expect((await stored(storage)).filter((s) => s.startsWith("once"))).toHaveLength(1);
  });

  it("AG-20 during stop, send, continue and run throw AgentRuntimeError", async () => {
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]) });
    const stopping = agent.stop();
    expect(() => agent.send(createUserMessage("x"))).toThrow(AgentRuntimeError);
    expect(() => agent.send(createUserMessage("x"))).toThrow("Agent is stopping");
    expect(() => agent.continue("x")).toThrow("Agent is stopping");
    expect(() => agent.run(createUserMessage("x"))).toThrow("Agent is stopping");
    await stopping;
    await agent.wait();
  });

  it("AG-20 AG-28 after stop() returns, send, continue and run refuse new work until init() starts the agent again", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({ model });
    await agent.init();
    await agent.stop();
    const stopped = "Agent is stopped; call init() to start it again";
    expect(() => agent.send(createUserMessage("late"))).toThrow(AgentRuntimeError);
    expect(() => agent.send(createUserMessage("late"), { trigger: false })).toThrow(stopped);
    expect(() => agent.continue("late")).toThrow(stopped);
    expect(() => agent.run(createUserMessage("late"))).toThrow(stopped);
    expect(agent.isIdle()).toBe(true);
    expect(model.prompts).toHaveLength(0);
    await agent.init();
    expect(agent.send(createUserMessage("after"))).toBeTypeOf("string");
    await agent.wait();
    expect(model.prompts).toHaveLength(1);
  });
});

describe("background writes (AG-21)", () => {
  it("AG-21 wait() is a persistence barrier for background writes, which isIdle() ignores", async () => {
    const release = deferred();
    const inner = createMemoryStorage();
    const slow: AgentStorage = { ...inner, append: async (...entries) => (await release.promise, inner.append(...entries)) };
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage: slow });
    agent.send(createUserMessage("fact"), { trigger: false });
    expect(agent.isIdle()).toBe(true);
    let waited = false;
    const waiting = agent.wait().then(() => (waited = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(waited).toBe(false);
    release.resolve();
    await waiting;
    expect((await inner.read()).map((e) => e.type)).toEqual(["message"]);
  });

  it("AG-21 a failed background write is no unhandled rejection: it is logged and emitted as agent.error", async () => {
    const logger = recordingLogger();
    const failing: AgentStorage = { append: async () => Promise.reject(new Error("disk full")), read: async () => [], clear: async () => undefined };
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage: failing, logger });
    const events = recordEvents(agent);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      agent.send(createUserMessage("fact"), { trigger: false });
      await agent.wait();
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(events).toContainEqual({ type: "agent.error", source: "background-write", message: expect.stringContaining("disk full") });
    expect(logger.lines.some(([level, text]) => level === "warn" && text.includes("disk full"))).toBe(true);
  });
});
