import { jsonSchema, tool, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  createAgent,
  createAssistantMessage,
  createCustomMessage,
  createEntry,
  createMemoryStorage,
  createSystemMessage,
  createToolMessage,
  createUserMessage,
  MISSING_TOOL_RESULT,
  type AgentPlugin,
  type StepOptions,
} from "../src/index.js";
import { recordEvents, recordingLogger, retraction, scriptedModel } from "./agent-support.js";

const echo = tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => "echoed" });

describe("plugin hooks (AG-49)", () => {
  it("AG-49 pipes run pre, registration, post; undefined keeps the value; transforms get turnId and signal", async () => {
    const order: string[] = [];
    const mk = (name: string, enforce?: "pre" | "post"): AgentPlugin => ({
      name,
      enforce,
      transformMessages: (messages, options) => {
        order.push(`${name}:${typeof options.turnId}:${options.signal instanceof AbortSignal}`);
        return name === "keep" ? undefined : [...messages, createUserMessage(`from ${name}`)];
      },
    });
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({ model, plugins: [mk("normal"), mk("post", "post"), mk("keep"), mk("pre", "pre")] });
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(order).toEqual(["pre:string:true", "normal:string:true", "keep:string:true", "post:string:true"]);
    const users = model.prompts[0].prompt.filter((m) => m.role === "user").map((m) => (m.content[0] as { text: string }).text);
    expect(users).toEqual(["hi", "from pre", "from normal", "from post"]);
  });

  it("AG-49 onAppend pipes each agent-driven append and may add entries; a throw fails that write", async () => {
    const storage = createMemoryStorage();
    let fail = false;
    const plugin: AgentPlugin = {
      name: "delivery",
      onAppend: (entries) => {
        if (fail) throw new Error("onAppend broke");
        return entries.some((e) => e.type === "message" && e.data.role === "assistant") ? [...entries, createEntry("state", { version: 1 })] : undefined;
      },
    };
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage, plugins: [plugin] });
    agent.send(createUserMessage("hi"));
    await agent.wait();
    const types = (await storage.read()).map((e) => e.type);
    expect(types).toEqual(["event", "message", "message", "state", "event"]);
    fail = true;
    await expect(agent.state.update({ version: 1 })).rejects.toThrow("onAppend broke");
    // Direct appends through agent.storage bypass onAppend (AG-11).
    await agent.storage.append(createEntry("message", createUserMessage("direct")));
    expect((await storage.read()).at(-1)?.type).toBe("message");
  });

  it("AG-49 toModelMessages: the first plugin returning a value wins", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const plugins: AgentPlugin[] = [
      { name: "skip", toModelMessages: () => undefined },
      { name: "first", toModelMessages: (message) => (message.type === "test.retraction" ? [{ role: "user", content: `retracted #${message.data.messageId}` }] : undefined) },
      { name: "second", toModelMessages: () => [{ role: "user", content: "never" }] },
    ];
    const agent = createAgent({ model, plugins });
    agent.send(createCustomMessage("test.retraction", retraction("m7")));
    await agent.wait();
    const texts = model.prompts[0].prompt.flatMap((m) => (m.role === "user" ? m.content.map((p) => ("text" in p ? p.text : "")) : []));
    expect(texts).toEqual(["retracted #m7"]);
  });

  it("AG-49 prepareStep pipes; a new context object lasts the rest of the turn and the next turn starts over", async () => {
    const seen: Array<[number, unknown]> = [];
    const plugin: AgentPlugin = {
      name: "ctx",
      prepareStep: (step: StepOptions) => {
        seen.push([step.stepNumber, step.runtimeContext.marker]);
        return step.stepNumber === 0 ? { ...step, runtimeContext: { marker: "set at step 0" } } : undefined;
      },
    };
    const replies = [{ calls: [{ id: "c", name: "echo" }] }, { text: "ok" }, { calls: [{ id: "d", name: "echo" }] }, { text: "ok" }];
    const agent = createAgent({ model: scriptedModel(replies), tools: { echo }, plugins: [plugin], runtimeContext: { marker: "config" } });
    agent.send(createUserMessage("one"));
    await agent.wait();
    agent.send(createUserMessage("two"));
    await agent.wait();
    expect(seen).toEqual([[0, "config"], [1, "set at step 0"], [0, "config"], [1, "set at step 0"]]);
  });

  it("AG-49 onTurnFinish runs for every plugin in order after the terminal event; throws are ignored", async () => {
    const order: string[] = [];
    const agent = createAgent({
      model: scriptedModel([{ text: "ok" }]),
      plugins: [
        { name: "a", onTurnFinish: () => { order.push("a"); throw new Error("ignored"); } },
        { name: "b", onTurnFinish: (result) => void order.push(`b:${result.status}:${result.messages.length}`) },
      ],
    });
    agent.channel.subscribe("agent", (event) => void (event.type === "turn.done" && order.push("turn.done")));
    agent.send(createUserMessage("hi"));
    await agent.wait();
    expect(order).toEqual(["turn.done", "a", "b:done:2"]);
  });
});

describe("projection and repair", () => {
  it("AG-52 projection keeps providerOptions and drops the agent's metadata", async () => {
    const providerOptions = { test: { cache: true } };
    const storage = createMemoryStorage([
      createEntry("message", createSystemMessage("sys", { providerOptions })),
      createEntry("message", createUserMessage("u", { providerOptions })),
      createEntry("message", createAssistantMessage([{ type: "tool-call", toolCallId: "c0", toolName: "echo", input: {} }], { providerOptions, finishReason: "tool-calls" })),
      createEntry("message", createToolMessage([{ type: "tool-result", toolCallId: "c0", toolName: "echo", output: { type: "text", value: "r" } }], { providerOptions })),
    ]);
    let projected: ModelMessage[] = [];
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage, plugins: [{ name: "spy", prepareStep: (step) => void (projected = step.messages) }] });
    agent.continue();
    await agent.wait();
    expect(projected).toEqual([
      { role: "system", content: "sys", providerOptions },
      { role: "user", content: "u", providerOptions },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c0", toolName: "echo", input: {} }], providerOptions },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c0", toolName: "echo", output: { type: "text", value: "r" } }], providerOptions },
    ]);
  });

  it("AG-53 a custom message nobody projects is dropped and logged at debug once per type", async () => {
    const logger = recordingLogger();
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({ model, logger });
    agent.send(createCustomMessage("test.retraction", retraction("a")), { trigger: false });
    agent.send(createUserMessage("hi"));
    await agent.wait();
    agent.send(createCustomMessage("test.retraction", retraction("b")));
    await agent.wait();
    expect(model.prompts[0].prompt.filter((m) => m.role !== "system")).toHaveLength(1);
    expect(logger.lines.filter(([level, text]) => level === "debug" && text.includes("test.retraction"))).toHaveLength(1);
  });

  it("AG-54 a tool call without a result gets a synthetic error result before the next user message, never persisted", async () => {
    const storage = createMemoryStorage([
      createEntry("message", createUserMessage("before crash")),
      createEntry("message", createAssistantMessage([
        { type: "tool-call", toolCallId: "lost", toolName: "echo", input: {} },
        { type: "tool-call", toolCallId: "remote", toolName: "search", input: {}, providerExecuted: true },
      ])),
      createEntry("message", createUserMessage("after restart")),
      createEntry("message", createAssistantMessage([{ type: "tool-call", toolCallId: "tail", toolName: "echo", input: {} }])),
    ]);
    let projected: ModelMessage[] = [];
    const agent = createAgent({ model: scriptedModel([{ text: "ok" }]), storage, tools: { echo }, plugins: [{ name: "spy", prepareStep: (step) => void (projected = step.messages) }] });
    const events = recordEvents(agent);
    agent.continue();
    await agent.wait();
    const synthetic = (id: string) => ({ role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "echo", output: { type: "error-text", value: MISSING_TOOL_RESULT } }] });
    expect(projected.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant", "tool"]);
    expect(projected[2]).toEqual(synthetic("lost"));
    expect(projected[5]).toEqual(synthetic("tail"));
    expect(events.filter((e) => e.type === "tool.result_repaired").map((e) => (e as { toolCallId: string }).toolCallId)).toEqual(["lost", "tail"]);
    const stored = await storage.read();
    expect(stored.filter((e) => e.type === "message" && e.data.role === "tool")).toHaveLength(0);
  });
});
