import { jsonSchema, tool } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AgentChannel,
  createAgent,
  createEntry,
  createMemoryStorage,
  createUserMessage,
  type AgentEntry,
  type AgentEvent,
  type AgentPlugin,
  type AgentStorage,
  type AgentStreamEvent,
} from "../src/index.js";
import { deferred, heldReply, promptTexts, recordEvents, recordingLogger, scriptedModel } from "./agent-support.js";

const echo = tool({ inputSchema: jsonSchema<{ x?: number }>({ type: "object" }), execute: async () => "echoed" });
const kinds = (entries: AgentEntry[]): string[] => entries.map((e) => (e.type === "message" ? `message:${e.data.role}` : e.type === "event" ? `event:${e.data.type}` : e.type));

afterEach(() => vi.useRealTimers());

describe("persistence and events", () => {
  it("AG-13 only messages, turn lifecycle events and state are persisted; messages inside a turn carry its id", async () => {
    const storage = createMemoryStorage();
    const agent = createAgent({ model: scriptedModel([{ calls: [{ id: "c1", name: "echo" }] }, { text: "done" }]), storage, tools: { echo } });
    const events = recordEvents(agent);
    const turnId = agent.send(createUserMessage("hi"));
    await agent.wait();
    const entries = await storage.read();
    expect(kinds(entries)).toEqual(["event:turn.start", "message:user", "message:assistant", "message:tool", "message:assistant", "event:turn.done"]);
    expect(entries.every((e) => e.turnId === turnId)).toBe(true);
    const emitted = new Set(events.map((e) => e.type));
    for (const type of ["turn.queued", "turn.step", "tool.start", "tool.done", "message.appended", "agent.init"]) expect(emitted.has(type as AgentEvent["type"])).toBe(true);
  });

  it("AG-33 AG-34 event payloads: seq continues after stored entries; seenSeq is the highest seq a step read", async () => {
    const storage = createMemoryStorage([createEntry("message", createUserMessage("old 1")), createEntry("message", createUserMessage("old 2"))]);
    const agent = createAgent({ model: scriptedModel([{ calls: [{ id: "c1", name: "echo" }] }, { text: "done" }]), storage, tools: { echo } });
    const events = recordEvents(agent);
    const turnId = agent.send(createUserMessage("hi"));
    await agent.wait();
    const appended = events.filter((e): e is Extract<AgentEvent, { type: "message.appended" }> => e.type === "message.appended");
    // Entries 1-2 were read at init; turn.start is 3, so the user message is 4.
    expect(appended.map((e) => [e.message.role, e.seq])).toEqual([["user", 4], ["assistant", 5], ["tool", 6], ["assistant", 7]]);
    expect(appended[0]).toMatchObject({ turnId, entryId: expect.any(String) });
    const steps = events.filter((e): e is Extract<AgentEvent, { type: "turn.step" }> => e.type === "turn.step");
    expect(steps.map((s) => [s.stepNumber, s.seenSeq, s.finishReason])).toEqual([[0, 4, "tool-calls"], [1, 6, "stop"]]);
    expect(steps[0].usage?.inputTokens).toBe(3);
    const done = events.find((e) => e.type === "turn.done");
    expect(done).toMatchObject({ turnId, steps: 2, usage: { inputTokens: 3, outputTokens: 2 }, totalUsage: { inputTokens: 6, outputTokens: 4, totalTokens: 10 } });
  });

  it("AG-35 the stream channel publishes every model part without awaiting its listeners", async () => {
    const agent = createAgent({ model: scriptedModel([{ text: "streamed" }]) });
    const parts: AgentStreamEvent[] = [];
    agent.channel.subscribe("stream", (event) => {
      parts.push(event);
      return new Promise(() => undefined);
    });
    const turnId = agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(parts.every((p) => p.turnId === turnId && p.stepNumber === 0)).toBe(true);
    expect(parts.map((p) => p.part.type)).toEqual(expect.arrayContaining(["start-step", "text-delta", "finish-step", "finish"]));
  });

  it("AG-36 AG-58 lifecycle entries are stored before listeners run; message.appended follows the append", async () => {
    const storage = createMemoryStorage();
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage });
    const seenAtDelivery: string[][] = [];
    agent.channel.subscribe("agent", async (event) => {
      if (event.type === "turn.start" || event.type === "turn.done" || event.type === "message.appended") {
        seenAtDelivery.push([event.type, ...kinds(await storage.read()).slice(-1)]);
      }
    });
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(seenAtDelivery).toEqual([
      ["turn.start", "event:turn.start"],
      ["message.appended", "message:user"],
      ["message.appended", "message:assistant"],
      ["turn.done", "event:turn.done"],
    ]);
  });

  it("AG-32 channel listeners run concurrently and are awaited; errors are swallowed; slow ones are logged", async () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    const channel = new AgentChannel(logger);
    const order: string[] = [];
    const slow = deferred();
    channel.subscribe("agent", async () => {
      order.push("slow start");
      await slow.promise;
      order.push("slow end");
    });
    channel.subscribe("agent", () => {
      order.push("fast");
      throw new Error("listener bug");
    });
    const off = channel.subscribe("agent", () => void order.push("removed"));
    off();
    let settled = false;
    const emitting = channel.emit("agent", { type: "agent.init" }).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(5_001);
    expect(order).toEqual(["slow start", "fast"]);
    expect(settled).toBe(false);
    expect(logger.lines.filter(([level]) => level === "warn").map(([, text]) => text)).toEqual([
      expect.stringContaining("listener failed: listener bug"),
      expect.stringContaining("still running after 5000 ms (agent.init)"),
    ]);
    slow.resolve();
    await emitting;
    expect(order).toEqual(["slow start", "fast", "slow end"]);
  });
});

describe("turn and step loop", () => {
  it("AG-37 a step with tool calls continues; onStepFinish's first defined decision wins", async () => {
    const decisions: AgentPlugin[] = [
      { name: "silent", onStepFinish: () => undefined },
      { name: "stopper", onStepFinish: (info) => (info.stepNumber === 1 ? { continue: false } : undefined) },
      { name: "late", onStepFinish: () => ({ continue: true }) },
    ];
    const model = scriptedModel([{ calls: [{ id: "c1", name: "echo" }] }, { calls: [{ id: "c2", name: "echo" }] }, { calls: [{ id: "c3", name: "echo" }] }]);
    const agent = createAgent({ model, tools: { echo }, plugins: decisions });
    // "late" always says continue, but "stopper" comes first at step 1 and wins.
    const events = recordEvents(agent);
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(events.filter((e) => e.type === "turn.step")).toHaveLength(2);
  });

  it("AG-37 AG-47 invalid tool calls count as tool calls and the turn goes on with SDK error results", async () => {
    const model = scriptedModel([{ calls: [{ id: "c1", name: "missing_tool" }] }, { text: "sorry" }]);
    const agent = createAgent({ model, tools: { echo } });
    const events = recordEvents(agent);
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(events.filter((e) => e.type === "turn.step")).toHaveLength(2);
    expect(promptTexts(model.prompts[1]).join("\n")).toMatch(/result\(missing_tool:.*error-text/);
  });

  it("AG-38 running out of maxSteps while the model wants more ends the turn as done", async () => {
    const agent = createAgent({ model: scriptedModel([{ calls: [{ id: "c", name: "echo" }] }]), tools: { echo }, maxSteps: 3 });
    const events = recordEvents(agent);
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(events.filter((e) => e.type === "turn.step")).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: "turn.done", steps: 3 });
  });

  it("AG-39 step 0 assembles instructions (config, then plugins, blanks skipped, blank-line joined) and merged tools", async () => {
    const extra = tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => "x" });
    const model = scriptedModel([{ text: "ok" }]);
    const plugins: AgentPlugin[] = [
      { name: "a", extendInstructions: () => "From A.", extendTools: () => ({ extra }) },
      { name: "b", extendInstructions: () => "   " },
      { name: "c", enforce: "pre", extendInstructions: async () => "From C (pre)." },
    ];
    const agent = createAgent({ model, instructions: "Base.", tools: { echo }, plugins });
    agent.send(createUserMessage("hi"));
    await agent.wait();
    const prompt = model.prompts[0];
    expect(prompt.prompt[0]).toEqual({ role: "system", content: "Base.\n\nFrom C (pre).\n\nFrom A." });
    expect(prompt.tools?.map((t) => t.name).sort()).toEqual(["echo", "extra"]);
  });

  it("AG-39 AG-42 a duplicate tool name fails the turn with ToolConflictError", async () => {
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), tools: { echo }, plugins: [{ name: "dup", extendTools: () => ({ echo }) }] });
    const events = recordEvents(agent);
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(events.at(-1)).toMatchObject({ type: "turn.failed", error: { name: "ToolConflictError", message: expect.stringContaining('"echo"') } });
  });

  it("AG-39 the model is called once per step without retries", async () => {
    let calls = 0;
    const model = scriptedModel([() => {
      calls += 1;
      throw Object.assign(new Error("overloaded"), { isRetryable: true, statusCode: 503 });
    }]);
    const agent = createAgent({ model });
    const events = recordEvents(agent);
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(calls).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: "turn.failed" });
  });

  it("AG-40 a step's assistant and tool messages go in one append, with usage, finishReason and providerOptions", async () => {
    const inner = createMemoryStorage();
    const batches: string[][] = [];
    const storage: AgentStorage = { ...inner, append: async (...entries) => (batches.push(kinds(entries)), inner.append(...entries)) };
    const agent = createAgent({ model: scriptedModel([{ calls: [{ id: "c1", name: "echo" }, { id: "c2", name: "echo" }] }, { text: "fin" }]), storage, tools: { echo } });
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(batches).toContainEqual(["message:assistant", "message:tool"]);
    const assistant = (await inner.read()).find((e) => e.type === "message" && e.data.role === "assistant");
    expect(assistant?.data).toMatchObject({ usage: { inputTokens: 3 }, finishReason: "tool-calls" });
  });

  it("AG-40 AG-41 a step aborted before its results are complete persists nothing; joined and deferred still are", async () => {
    const started = deferred();
    const slow = tool({
      inputSchema: jsonSchema({ type: "object" }),
      execute: async () => {
        started.resolve();
        return new Promise(() => undefined);
      },
    });
    const storage = createMemoryStorage();
    const agent = createAgent({ model: scriptedModel([{ calls: [{ id: "c1", name: "slow" }] }]), storage, tools: { slow } });
    const events = recordEvents(agent);
    agent.send(createUserMessage("hi"));
    await started.promise;
    agent.send(createUserMessage("joined"), { trigger: false, ifBusy: "join" });
    agent.send(createUserMessage("deferred"), { trigger: false });
    await agent.interrupt("enough");
    expect(kinds(await storage.read())).toEqual(["event:turn.start", "message:user", "message:user", "message:user", "event:turn.aborted"]);
    expect(events.at(-1)).toMatchObject({ type: "turn.aborted", reason: "enough" });
  });

  it("AG-41 AG-42 a model stream error fails the turn with a serialised error; joined and deferred are still persisted", async () => {
    const gate = heldReply({ error: new Error("stream broke", { cause: "upstream 500" }) });
    const model = scriptedModel([gate.reply]);
    const storage = createMemoryStorage();
    const agent = createAgent({ model, storage });
    const events = recordEvents(agent);
    agent.send(createUserMessage("hi"));
    await gate.entered;
    agent.send(createUserMessage("joined"), { trigger: false, ifBusy: "join" });
    agent.send(createUserMessage("deferred"), { trigger: false });
    gate.release();
    await agent.wait();
    const failed = events.at(-1);
    expect(failed).toMatchObject({ type: "turn.failed", error: { name: "Error", message: "stream broke", cause: "upstream 500", stack: expect.any(String) } });
    expect(kinds(await storage.read())).toEqual(["event:turn.start", "message:user", "message:user", "message:user", "event:turn.failed"]);
  });

  it("AG-42 an enforced toolChoice the model ignores fails the turn; a tool's own error does not", async () => {
    const boom = tool({ inputSchema: jsonSchema({ type: "object" }), execute: async (): Promise<string> => { throw new Error("tool broke"); } });
    const ignored = createAgent({ model: scriptedModel([{ text: "no tools" }]), tools: { echo }, toolChoice: "required" });
    const ignoredEvents = recordEvents(ignored);
    ignored.send(createUserMessage("hi"));
    await ignored.wait();
    expect(ignoredEvents.at(-1)).toMatchObject({ type: "turn.failed", error: { name: expect.stringContaining("ToolChoiceViolation") } });

    const named = createAgent({ model: scriptedModel([{ calls: [{ id: "c", name: "boom" }] }, { text: "ok" }]), tools: { echo, boom }, toolChoice: { type: "tool", toolName: "echo" } });
    const namedEvents = recordEvents(named);
    named.send(createUserMessage("hi"));
    await named.wait();
    expect(namedEvents.at(-1)).toMatchObject({ type: "turn.failed", error: { name: expect.stringContaining("ToolChoiceViolation") } });

    const fine = createAgent({ model: scriptedModel([{ calls: [{ id: "c", name: "boom" }] }, { text: "ok" }]), tools: { boom } });
    const fineEvents = recordEvents(fine);
    fine.send(createUserMessage("hi"));
    await fine.wait();
    expect(fineEvents.at(-1)).toMatchObject({ type: "turn.done" });
  });

  it("AG-42 plugin pipe hooks, init and storage failures fail the turn", async () => {
    const cases: Array<[string, Partial<Parameters<typeof createAgent>[0]>]> = [
      ["transformMessages", { plugins: [{ name: "bad", transformMessages: () => { throw new Error("pipe broke"); } }] }],
      ["init", { plugins: [{ name: "bad", init: () => { throw new Error("init broke"); } }] }],
      ["storage", { storage: { append: async () => Promise.reject(new Error("disk full")), read: async () => [], clear: async () => undefined } }],
    ];
    for (const [, extra] of cases) {
      const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), ...extra });
      const events = recordEvents(agent);
      agent.send(createUserMessage("hi"));
      await agent.wait();
      expect(events.at(-1)).toMatchObject({ type: "turn.failed", error: { message: expect.stringMatching(/broke|disk full/) } });
    }
  });
});
