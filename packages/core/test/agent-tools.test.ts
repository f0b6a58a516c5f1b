import { experimental_toolCaller, jsonSchema, tool, type Tool, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import {
  createAgent,
  createMemoryStorage,
  createUserMessage,
  ToolError,
  type AgentEvent,
  type AgentPlugin,
  type AgentStorage,
} from "../src/index.js";
import { deferred, recordEvents, scriptedModel } from "./agent-support.js";

const schema = jsonSchema<Record<string, unknown>>({ type: "object" });

/** The stored tool results of a turn, by tool call id. */
async function results(storage: AgentStorage): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const entry of await storage.read()) {
    if (entry.type !== "message" || entry.data.role !== "tool") continue;
    for (const part of entry.data.content) if (part.type === "tool-result") out[part.toolCallId] = part.output;
  }
  return out;
}

async function runCalls(tools: ToolSet, calls: Array<{ id: string; name: string; input?: unknown }>, plugins: AgentPlugin[] = []) {
  const storage = createMemoryStorage();
  const model = scriptedModel([{ calls }, { text: "ok" }]);
  const agent = createAgent({ model, storage, tools, plugins });
  const events = recordEvents(agent);
  agent.send(createUserMessage("go"));
  await agent.wait();
  return { outputs: await results(storage), events, model };
}

class ResourceError extends Error {
  override name = "ResourceError";
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

describe("tool execution and error mapping", () => {
  it("AG-43 a tool without execute gets an error result and tool.failed; the step continues", async () => {
    const bare = { inputSchema: schema, outputSchema: schema } as Tool;
    const { outputs, events } = await runCalls({ bare }, [{ id: "c1", name: "bare" }]);
    expect(outputs.c1).toEqual({ type: "error-text", value: 'AgentRuntimeError: Tool "bare" has no execute function' });
    expect(events).toContainEqual(expect.objectContaining({ type: "tool.failed", toolName: "bare", toolCallId: "c1" }));
    expect(events.filter((e) => e.type === "turn.step")).toHaveLength(2);
  });

  it("AG-44 beforeToolCall starts at allow; block skips the tool, replace runs it with new args", async () => {
    const ran: unknown[] = [];
    const spy = tool({ inputSchema: schema, execute: async (input) => (ran.push(input), "ran") });
    const seen: string[] = [];
    const plugins: AgentPlugin[] = [
      { name: "first", beforeToolCall: (decision) => void seen.push(decision.type) },
      { name: "rules", beforeToolCall: (_decision, call) => (call.toolCallId === "c1" ? { type: "block", reason: "not allowed" } : { type: "replace", args: { v: 2 } }) },
    ];
    const { outputs, events } = await runCalls({ spy }, [{ id: "c1", name: "spy", input: { v: 1 } }, { id: "c2", name: "spy", input: { v: 1 } }], plugins);
    expect(seen).toEqual(["allow", "allow"]);
    expect(outputs.c1).toEqual({ type: "json", value: { blocked: true, reason: "not allowed" } });
    expect(events).toContainEqual({ type: "tool.blocked", turnId: expect.any(String), toolName: "spy", toolCallId: "c1", reason: "not allowed" });
    expect(ran).toEqual([{ v: 2 }]);
    expect(events).toContainEqual(expect.objectContaining({ type: "tool.start", toolCallId: "c2", args: { v: 2 } }));
  });

  it("AG-45 execute is raced against the turn signal: a tool ignoring abort still ends the turn aborted at once", async () => {
    const started = deferred();
    const stubborn = tool({ inputSchema: schema, execute: async () => (started.resolve(), new Promise(() => undefined)) });
    const agent = createAgent({ model: scriptedModel([{ calls: [{ id: "c1", name: "stubborn" }] }]), tools: { stubborn } });
    const events = recordEvents(agent);
    agent.send(createUserMessage("go"));
    await started.promise;
    await agent.interrupt("stop now");
    expect(events.at(-1)).toMatchObject({ type: "turn.aborted", reason: "stop now" });
    expect(events.some((e) => e.type === "tool.failed")).toBe(false);
  });

  it("AG-45 afterToolCall may rewrite result and isError; the event follows the original outcome", async () => {
    const ok = tool({ inputSchema: schema, execute: async () => "fine" });
    const bad = tool({ inputSchema: schema, execute: async (): Promise<string> => { throw new Error("nope"); } });
    const plugins: AgentPlugin[] = [{
      name: "rewrite",
      afterToolCall: (result) => (result.toolName === "ok" ? { ...result, result: "rewritten" } : { ...result, result: "recovered", isError: false }),
    }];
    const { outputs, events } = await runCalls({ ok, bad }, [{ id: "c1", name: "ok" }, { id: "c2", name: "bad" }], plugins);
    expect(outputs).toEqual({ c1: { type: "text", value: "rewritten" }, c2: { type: "text", value: "recovered" } });
    expect(events).toContainEqual(expect.objectContaining({ type: "tool.done", toolCallId: "c1", result: "rewritten" }));
    expect(events).toContainEqual(expect.objectContaining({ type: "tool.failed", toolCallId: "c2", error: expect.objectContaining({ message: "nope" }) }));
  });

  it("AG-46 error texts: ToolError exactly, others <name>: <message>, with a string code <name> [<code>]: <message>", async () => {
    const throwing = (error: unknown): Tool => tool({ inputSchema: schema, execute: async (): Promise<string> => { throw error; } });
    const { outputs } = await runCalls(
      { own: throwing(new ToolError("Nothing to read at workspace:///x")), plain: throwing(new TypeError("bad input")), coded: throwing(new ResourceError("resource_not_found", "expected clock://now")) },
      [{ id: "a", name: "own" }, { id: "b", name: "plain" }, { id: "c", name: "coded" }],
    );
    expect(outputs).toEqual({
      a: { type: "error-text", value: "Nothing to read at workspace:///x" },
      b: { type: "error-text", value: "TypeError: bad input" },
      c: { type: "error-text", value: "ResourceError [resource_not_found]: expected clock://now" },
    });
  });

  it("AG-47 throws in beforeToolCall or afterToolCall become that call's error result", async () => {
    const ok = tool({ inputSchema: schema, execute: async () => "fine" });
    const plugins: AgentPlugin[] = [{
      name: "broken",
      beforeToolCall: (decision, call) => {
        if (call.toolCallId === "c1") throw new Error("before broke");
        return decision;
      },
      afterToolCall: (result) => {
        if (result.toolCallId === "c2") throw new ToolError("after broke");
        return result;
      },
    }];
    const { outputs, events } = await runCalls({ ok }, [{ id: "c1", name: "ok" }, { id: "c2", name: "ok" }], plugins);
    expect(outputs).toEqual({ c1: { type: "error-text", value: "Error: before broke" }, c2: { type: "error-text", value: "after broke" } });
    expect(events.at(-1)).toMatchObject({ type: "turn.done" });
  });

  it("AG-48 results map as in the AI SDK: string to text, other values to JSON, toModelOutput wins", async () => {
    const text = tool({ inputSchema: schema, execute: async () => "plain" });
    const json = tool({ inputSchema: schema, execute: async () => ({ n: 1 }) });
    const custom = tool({ inputSchema: schema, execute: async () => ({ n: 2 }), toModelOutput: ({ output }) => ({ type: "text", value: `n=${output.n}` }) });
    const { outputs } = await runCalls({ text, json, custom }, [{ id: "a", name: "text" }, { id: "b", name: "json" }, { id: "c", name: "custom" }]);
    expect(outputs).toEqual({ a: { type: "text", value: "plain" }, b: { type: "json", value: { n: 1 } }, c: { type: "text", value: "n=2" } });
  });

  it("AG-17 caller-only tools are not sent to the model; nested calls run through the agent's hooks and events", async () => {
    const inner = tool({ inputSchema: schema, execute: async (input) => ({ echoed: input }) });
    const both = tool({ inputSchema: schema, execute: async () => "both" });
    const outerBase = tool({ inputSchema: schema, execute: async () => "unbound" });
    const outer = experimental_toolCaller(outerBase, {
      type: "local",
      bind: (callable) =>
        tool({
          inputSchema: schema,
          execute: async (input, options) => {
            const first = await callable.inner.execute?.({ from: "outer" }, { ...options, toolCallId: "nested-1" });
            const second = await callable.both.execute?.({}, { ...options, toolCallId: "nested-2" });
            return { first, second };
          },
        }),
    });
    const calls: string[] = [];
    const plugins: AgentPlugin[] = [{ name: "audit", beforeToolCall: (decision, call) => (calls.push(call.toolName), decision) }];
    const storage = createMemoryStorage();
    const model = scriptedModel([{ calls: [{ id: "c1", name: "outer" }] }, { text: "ok" }]);
    const agent = createAgent({ model, storage, tools: { inner, both, outer }, toolCallers: { inner: ["outer"], both: ["direct", "outer"] }, plugins });
    const events = recordEvents(agent);
    agent.send(createUserMessage("go"));
    await agent.wait();
    expect(model.prompts[0].tools?.map((t) => t.name).sort()).toEqual(["both", "outer"]);
    expect(calls.sort()).toEqual(["both", "inner", "outer"]);
    const toolEvents = events.filter((e): e is Extract<AgentEvent, { type: "tool.done" }> => e.type === "tool.done").map((e) => [e.toolName, e.toolCallId]);
    expect(toolEvents).toEqual([["inner", "nested-1"], ["both", "nested-2"], ["outer", "c1"]]);
    expect((await results(storage)).c1).toEqual({ type: "json", value: { first: { echoed: { from: "outer" } }, second: "both" } });
  });
});
