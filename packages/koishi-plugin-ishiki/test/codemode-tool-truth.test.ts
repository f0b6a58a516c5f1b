// Issue 20: with codemode and toolsearch on, the model is told the truth about where tools are callable: `search`
// hits say `tools.<name>(...)` inside codemode, the instructions and catalog deltas say so, and a direct call of a
// codemode-only tool gets an error that says how to call it instead of the SDK's "unavailable tool" list.
import type { Context } from "koishi";
import { tool, type ToolSet } from "ai";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { Extension, type ExtensionInstance } from "../src/extension/index.js";
import { SEARCH_CODEMODE_NOTE } from "../src/toolsearch/index.js";
import { channel, readEvents, startActive, toolOutputs, type KernelApp } from "./runtime-app.js";
import type { ScriptedReply } from "../../core/test/agent-support.js";

class NotesExtension extends Extension {
  constructor(ctx: Context) {
    super(ctx, "notes");
  }
  [Extension.invoke](): ExtensionInstance {
    const tools: ToolSet = { write_note: tool({ description: "Write a note to the notebook.", inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => ({ saved: text }) }) };
    return { extendTools: () => tools };
  }
}

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const call = (id: string, name: string, input: unknown): ScriptedReply => ({ calls: [{ id, name, input }] });
const profile = (extra: Record<string, unknown>) => ({ model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { notes: {} }, toolsearch: { enable: true }, ...extra });

describe("where tools are callable (issue 20)", () => {
  it("codemode + toolsearch: direct calls of a codemode-only tool say how to call it; search hits and instructions say tools.<name>", async () => {
    const replies = [call("d1", "write_note", { text: "a" }), call("s1", "search", { query: "write note" }), call("d2", "write_note", { text: "b" }), call("f", "finish", {})];
    kernel = await startActive("p", { profiles: { p: profile({ codemode: { enable: true } }) }, replies, setup: (app) => app.plugin(NotesExtension) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    const outputs = toolOutputs(await readEvents(runtime.home));
    expect(outputs[0]).toEqual({
      error: 'Tool "write_note" is callable only inside codemode programs, not directly. Call codemode with a program such as: const result = await tools.write_note({ ... }); return result; It is not in the current catalog yet: call search to discover it first.',
    });
    expect(outputs[1]).toEqual({ tools: [{ name: "write_note", description: "Write a note to the notebook.", status: "new", call: "only inside codemode programs as await tools.write_note(input); a direct call fails" }] });
    expect(outputs[2]).toEqual({ error: 'Tool "write_note" is callable only inside codemode programs, not directly. Call codemode with a program such as: const result = await tools.write_note({ ... }); return result;' });
    const prompt = kernel.model.prompts[0];
    expect(JSON.stringify(prompt.prompt[0])).toContain("are callable only inside codemode programs as await tools.<name>(input); calling them directly fails");
    const search = prompt.tools?.find((t) => t.name === "search");
    expect(search?.type === "function" && search.description).toContain(SEARCH_CODEMODE_NOTE);
  });

  it("toolsearch without codemode: hits carry no call field and the instructions say nothing about programs", async () => {
    kernel = await startActive("p", { profiles: { p: profile({}) }, replies: [call("s1", "search", { query: "write note" }), call("f", "finish", {})], setup: (app) => app.plugin(NotesExtension) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    expect(toolOutputs(await readEvents(runtime.home))[0]).toEqual({ tools: [{ name: "write_note", description: "Write a note to the notebook.", status: "new" }] });
    expect(JSON.stringify(kernel.model.prompts[0].prompt[0])).not.toContain("codemode programs");
  });
});
