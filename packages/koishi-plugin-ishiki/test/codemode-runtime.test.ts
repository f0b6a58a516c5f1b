import { Context } from "koishi";
import { tool, type ToolSet } from "ai";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "@yesimagent/core";
import { Extension, type ExtensionHost, type ExtensionInstance } from "../src/extension/index.js";
import { channel, labels, logged, readEvents, startActive, toolOutputs, type KernelApp } from "./runtime-app.js";
import { deferred, promptTexts, type ScriptedReply } from "../../core/test/agent-support.js";

/** What the test tools saw: each call's input and the `caller` of its execution options. */
const seen: Array<{ name: string; input: unknown; caller: unknown }> = [];

function record(name: string, run: (input: Record<string, unknown>) => unknown = (input) => ({ echoed: input })) {
  return tool({
    description: `The ${name} tool.`,
    inputSchema: z.object({ text: z.string().optional(), n: z.number().optional() }),
    outputSchema: z.object({ echoed: z.object({ text: z.string().optional() }) }),
    execute: async (input, options) => {
      seen.push({ name, input, caller: (options as { caller?: unknown }).caller });
      return run(input);
    },
  });
}

function toolsExtension(tools: () => ToolSet) {
  return class extends Extension {
    constructor(ctx: Context) {
      super(ctx, "probe");
    }
    [Extension.invoke](_host: ExtensionHost): ExtensionInstance {
      return { extendTools: tools };
    }
  };
}

const profile = (codemode: Record<string, unknown>) => ({ model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { probe: {} }, codemode: { enable: true, ...codemode } });

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  seen.length = 0;
});

async function start(tools: () => ToolSet, replies: ScriptedReply[], codemode: Record<string, unknown> = {}) {
  kernel = await startActive("p", { profiles: { p: profile(codemode) }, replies, setup: (app) => app.plugin(toolsExtension(tools)) });
  const runtime = await kernel.app.ishiki.runtime("p", channel);
  const events: AgentEvent[] = [];
  runtime.agent.channel.subscribe("agent", (event) => void events.push(event));
  return { runtime, events };
}

const program = (id: string, js: string): ScriptedReply => ({ calls: [{ id, name: "codemode", input: { js } }] });
const finish: ScriptedReply = { calls: [{ id: "f", name: "finish" }] };

describe("the codemode tool in a runtime", () => {
  it("CT-1 CT-2 CT-3 CT-4 EX-16 routing: sandbox-only tools are absent from requests; direct and directOnly; the description declares program-callable tools and the base64 rule", async () => {
    const { runtime } = await start(() => ({ note: record("note"), pin: record("pin"), shout: record("shout") }), [finish], { direct: ["pin"], directOnly: ["shout", "ghost"] });
    runtime.wake();
    await runtime.agent.wait();
    const request = kernel!.model.prompts[0];
    const names = request.tools?.map((t) => t.name);
    expect(names).toEqual(["read", "send_message", "finish", "pin", "shout", "wait", "codemode"]);
    const codemode = request.tools?.find((t) => t.name === "codemode");
    expect(codemode?.type === "function" && codemode.inputSchema).toMatchObject({ properties: { js: { type: "string", minLength: 1, maxLength: 100000 } }, required: ["js"], additionalProperties: false });
    const description = codemode?.type === "function" ? codemode.description ?? "" : "";
    expect(description).toContain("Each call is an independent program");
    expect(description).toContain("top-level `attachments`");
    expect(description).toContain("30 s per program");
    expect(description).toContain("Returns the complete selected text");
    expect(description).toContain("A tool that wants base64 gets `data` from a prior `tools.read` result; a tool that accepts resource URLs takes the URL itself.");
    const declared = [...description.matchAll(/declare function (\w+)/g)].map((match) => match[1]);
    expect(declared).toEqual(["read", "send_message", "note", "pin"]);
    expect(description).toContain("/** The note tool. */\ndeclare function note(input?: {\n  text?: string;\n  n?: number;\n}): Promise<{");
    expect(logged(kernel!, 'codemode: "ghost" in codemode.direct or codemode.directOnly matches no tool', "warn")).toBe(true);
  });

  it("CT-8 CT-17 nested calls run through the agent with caller codemode and tool.* events; only the final return reaches the model", async () => {
    const js = "const a = await tools.note({ text: 'x' }); const [b, c] = await Promise.all([tools.pin({ n: 1 }), tools['note']({ n: 2 })]); return { a, n: [b, c].length };";
    const { runtime, events } = await start(() => ({ note: record("note"), pin: record("pin") }), [program("c1", js), finish]);
    runtime.wake();
    await runtime.agent.wait();
    expect(seen.map((call) => [call.name, call.caller])).toEqual([["note", "codemode"], ["pin", "codemode"], ["note", "codemode"]]);
    const nested = events.filter((event) => event.type === "tool.done").map((event) => (event as { toolName: string }).toolName);
    expect(nested).toEqual(["note", "pin", "note", "codemode", "finish"]);
    const entries = await readEvents(runtime.home);
    expect(toolOutputs(entries)).toEqual([{ a: { echoed: { text: "x" } }, n: 2 }, { ok: true }]);
    expect(labels(entries).filter((label) => label.startsWith("tool:"))).toEqual(["tool:codemode", "tool:finish"]);
  });

  it("CT-8 send_message from a program does not end the turn; the turn continues to the next step", async () => {
    const { runtime } = await start(() => ({}), [program("c1", "await tools.send_message({ messages: ['hi from a program'] }); return 1;"), finish]);
    runtime.wake();
    await runtime.agent.wait();
    expect(kernel!.outbound.sent.map((sent) => sent.content)).toEqual(["hi from a program"]);
    expect(kernel!.model.prompts).toHaveLength(2);
  });

  it("CT-15 CT-16 CT-18 errors are error results with the exact texts, console appended; console on success is a second text part", async () => {
    const failing = tool({ description: "fails", inputSchema: z.object({}), execute: async (): Promise<string> => { throw new Error("disk full"); } });
    const guarded = tool({ description: "guarded", inputSchema: z.object({}), needsApproval: true, execute: async () => "never" });
    const replies = [
      program("e1", "console.log('before');\nthrow new TypeError('bad thing');"),
      program("e2", "return await tools.failing({});"),
      program("e3", "try { await tools.failing({}); } catch (e) { return e.message; }"),
      program("e4", "return await tools.guarded({});"),
      program("e5", "tools.note({}); return 1;"),
      program("e6", "console.warn('careful', 2); return { ok: 1 };"),
      program("e7", "const x = 1;"),
      finish,
    ];
    const { runtime } = await start(() => ({ note: record("note"), failing, guarded }), replies);
    runtime.wake();
    await runtime.agent.wait();
    const outputs = toolOutputs(await readEvents(runtime.home));
    expect(outputs.slice(0, 5)).toEqual([
      { error: "codemode: TypeError: bad thing (line 2)\n\nConsole output:\n[log] before" },
      { error: expect.stringMatching(/^codemode: Tool "failing" failed: .*disk full/) },
      expect.stringMatching(/^codemode: Tool "failing" failed: .*disk full/),
      { error: 'codemode: Tool "guarded" requires approval and cannot be called from codemode' },
      { error: "codemode: Program returned while 1 tool call(s) were still pending; await every tools.* call" },
    ]);
    expect(outputs[5]).toEqual({ type: "content", value: [{ type: "text", text: '{"ok":1}' }, { type: "text", text: "Console output:\n[warn] careful 2" }] });
    expect(outputs[6]).toBeNull();
    expect(seen.filter((call) => call.name === "note")).toHaveLength(1);
  });

  it("CT-18 a turn abort stops the program and the turn ends aborted", async () => {
    const entered = deferred();
    const slow = tool({ description: "slow", inputSchema: z.object({}), execute: async (_input, options) => {
      entered.resolve();
      await new Promise((resolve) => options.abortSignal?.addEventListener("abort", resolve, { once: true }));
      return "late";
    } });
    const { runtime, events } = await start(() => ({ slow }), [program("a1", "return await tools.slow({});"), finish]);
    runtime.wake();
    await entered.promise;
    await runtime.agent.interrupt("test abort");
    await runtime.agent.wait();
    expect(events.some((event) => event.type === "turn.aborted")).toBe(true);
    expect(kernel!.model.prompts).toHaveLength(1);
  });

  it("CT-4 promptTexts: the model-visible result of a program is exactly its JSON return", async () => {
    const { runtime } = await start(() => ({ note: record("note") }), [program("c1", "const r = await tools.note({ text: 'big'.repeat(1000) }); return { size: r.echoed.text.length };"), finish]);
    runtime.wake();
    await runtime.agent.wait();
    const second = promptTexts(kernel!.model.prompts[1]).join("\n");
    expect(second).toContain('result(codemode:{"type":"json","value":{"size":3000}})');
    expect(second).not.toContain("bigbig");
  });
});
