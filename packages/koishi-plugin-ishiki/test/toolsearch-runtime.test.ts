import { rm } from "node:fs/promises";
import type { ProviderV4 } from "@ai-sdk/provider";
import { Context } from "koishi";
import { tool, type ToolSet } from "ai";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEntry } from "@yesimagent/core";
import { ContextEngine, type ContextEngineInstance } from "../src/engines/index.js";
import { Extension, type ExtensionHost, type ExtensionInstance } from "../src/extension/index.js";
import { IshikiService } from "../src/koishi/index.js";
import { createMemoryOutboundPort } from "../src/tools/index.js";
import { SEARCH_NO_MATCH_NOTE, SEARCH_TOOL_DESCRIPTION, sharedToolIndexes, type CatalogData } from "../src/toolsearch/index.js";
import { channel, readEvents, startActive, toolOutputs, until, type KernelApp } from "./runtime-app.js";
import { promptTexts, scriptedModel, type ScriptedReply } from "../../core/test/agent-support.js";

const note = (description: string) => tool({ description, inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => ({ saved: text }) });

/** Tools whose set can change between assemblies (an MCP list change). */
let offered: () => ToolSet = () => ({});

class ToolsExtension extends Extension {
  constructor(ctx: Context) {
    super(ctx, "probe");
  }
  [Extension.invoke](_host: ExtensionHost): ExtensionInstance {
    return { extendTools: () => offered() };
  }
}

const baseTools = (): ToolSet => ({
  write_note: note("Write a note to the notebook."),
  list_channels: tool({ description: "List the channels of the bot.", inputSchema: z.object({ channelId: z.string().optional() }), execute: async () => [] }),
  mute_member: note("Mute a group member."),
});

const profile = (extra: Record<string, unknown> = {}) => ({ model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { probe: {} }, toolsearch: { enable: true }, ...extra });

let kernel: KernelApp | undefined;
const extraDirs: string[] = [];
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  for (const dir of extraDirs.splice(0)) await rm(dir, { recursive: true, force: true });
  offered = () => ({});
});

function catalogs(entries: readonly AgentEntry[]): CatalogData[] {
  return entries.flatMap((entry) => (entry.type === "message" && entry.data.role === "custom" && entry.data.type === "ishiki.tools.catalog" ? [entry.data.data as CatalogData] : []));
}

const search = (id: string, query: string): ScriptedReply => ({ calls: [{ id, name: "search", input: { query } }] });
const finish: ScriptedReply = { calls: [{ id: "f", name: "finish" }] };

describe("toolsearch in a runtime", () => {
  it("CT-21 CT-22 CT-27 CT-28 CT-30 CT-32 CT-33 baseline at creation, search finds a deferred tool, a delta joins the turn, the tool is callable from the next step", async () => {
    offered = baseTools;
    const replies = [search("s1", "写笔记 write note"), { calls: [{ id: "w1", name: "write_note", input: { text: "milk" } }] }, search("s2", "zzzz qqqq"), finish];
    kernel = await startActive("p", { profiles: { p: profile() }, replies, setup: (app) => app.plugin(ToolsExtension) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    // The baseline is queued at creation; the file has it once the agent's writes are done.
    await runtime.agent.wait();
    const initial = catalogs(await readEvents(runtime.home));
    expect(initial).toEqual([{ version: 1, kind: "baseline", mode: "direct", added: expect.any(Array), removed: [], visible: ["read", "send_message", "finish", "wait", "search"], text: "Tool catalog (baseline). Callable directly: read, send_message, finish, wait, search. Use search to find more tools." }]);

    runtime.wake();
    await until(() => kernel!.model.prompts.length >= 4);
    await runtime.agent.wait();
    const [first, second] = kernel.model.prompts;
    expect(first.tools?.map((t) => t.name)).toEqual(["read", "send_message", "finish", "wait", "search"]);
    const searchTool = first.tools?.find((t) => t.name === "search");
    expect(searchTool?.type === "function" && searchTool.description).toBe(SEARCH_TOOL_DESCRIPTION);
    expect(promptTexts(first)).toContain(`user:${initial[0].text}`);
    expect(second.tools?.map((t) => t.name)).toEqual(["read", "send_message", "finish", "write_note", "wait", "search"]);
    expect(promptTexts(second)).toContain("user:Tool catalog update: +1 \u22120.\nwrite_note \u2014 Write a note to the notebook.");

    const entries = await readEvents(runtime.home);
    const outputs = toolOutputs(entries);
    expect(outputs[0]).toEqual({ tools: [{ name: "write_note", description: "Write a note to the notebook.", status: "new" }] });
    expect(outputs[1]).toEqual({ saved: "milk" });
    expect(outputs[2]).toEqual({ tools: [], note: SEARCH_NO_MATCH_NOTE });
    const written = catalogs(entries);
    expect(written.map((data) => [data.kind, data.visible])).toEqual([
      ["baseline", ["read", "send_message", "finish", "wait", "search"]],
      ["delta", ["read", "send_message", "finish", "write_note", "wait", "search"]],
    ]);
  });

  it("CT-21 CT-23 resident names stay visible; discovered tools report available; CT-28 a vanished tool leaves the set with a delta", async () => {
    offered = baseTools;
    const replies = [search("s1", "mute member"), search("s2", "mute"), finish];
    kernel = await startActive("p", { profiles: { p: profile({ toolsearch: { enable: true, resident: ["list_channels"], maxResults: 1 } }) }, replies, setup: (app) => app.plugin(ToolsExtension) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    expect(kernel.model.prompts[0].tools?.map((t) => t.name)).toContain("list_channels");
    const outputs = toolOutputs(await readEvents(runtime.home));
    expect(outputs.slice(0, 2)).toEqual([
      { tools: [{ name: "mute_member", description: "Mute a group member.", status: "new" }] },
      { tools: [{ name: "mute_member", description: "Mute a group member.", status: "available" }] },
    ]);

    offered = () => ({ write_note: note("Write a note to the notebook."), list_channels: baseTools().list_channels });
    runtime.wake();
    await runtime.agent.wait();
    const last = catalogs(await readEvents(runtime.home)).at(-1);
    expect(last).toMatchObject({ kind: "delta", removed: ["mute_member"], text: "Tool catalog update: +0 \u22121.\nNo longer available: mute_member." });
  });

  it("issue 19: the channels of one profile share one search index, each with its own discovered set; stopping releases it", async () => {
    offered = baseTools;
    const before = sharedToolIndexes.size;
    kernel = await startActive("p", { profiles: { p: profile() }, replies: [search("s1", "write note"), finish], setup: (app) => app.plugin(ToolsExtension) });
    const runtimes = [];
    for (const id of ["c1", "c2", "c3", "c4"]) runtimes.push(await kernel.app.ishiki.runtime("p", { ...channel, channelId: id }));
    expect(sharedToolIndexes.size - before).toBe(1);
    runtimes[0].wake();
    await runtimes[0].agent.wait();
    expect(catalogs(await readEvents(runtimes[0].home)).map((data) => data.kind)).toEqual(["baseline", "delta"]);
    expect(catalogs(await readEvents(runtimes[1].home)).map((data) => data.kind)).toEqual(["baseline"]);
    await kernel.dispose();
    kernel = undefined;
    await until(() => sharedToolIndexes.size === before);
  });

  it("CT-31 restart: the discovered set is rebuilt from events.jsonl and no duplicate baseline is written", async () => {
    offered = baseTools;
    kernel = await startActive("p", { profiles: { p: profile() }, replies: [search("s1", "write_note"), finish], setup: (app) => app.plugin(ToolsExtension) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    const before = catalogs(await readEvents(runtime.home));
    expect(before.map((data) => data.kind)).toEqual(["baseline", "delta"]);
    const home = runtime.home;
    await kernel.app.stop();

    const model = scriptedModel([finish]);
    const app = new Context();
    app.plugin(IshikiService, { dataPath: kernel.dir, profiles: { p: profile() }, models: { providers: {}, groups: {} } });
    app.plugin(ToolsExtension);
    await app.start();
    try {
      app.ishiki.gateway.defineApi("scripted", (): ProviderV4 => ({ specificationVersion: "v4", languageModel: () => model }) as unknown as ProviderV4);
      app.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted" } } });
      app.ishiki.outbound = createMemoryOutboundPort();
      await until(() => app.ishiki.profile("p")?.status === "active");
      const again = await app.ishiki.runtime("p", channel);
      expect(again.home).toBe(home);
      expect(catalogs(await readEvents(home))).toEqual(before);
      again.wake();
      await again.agent.wait();
      expect(model.prompts[0].tools?.map((t) => t.name)).toEqual(["read", "send_message", "finish", "write_note", "wait", "search"]);
      expect(catalogs(await readEvents(home))).toEqual(before);
    } finally {
      await app.stop();
    }
  });

  it("CT-29 CT-35 with codemode: programs call only visible tools; catalogs carry signatures; no SDK catalog message", async () => {
    offered = baseTools;
    const blocked = { calls: [{ id: "c1", name: "codemode", input: { js: "return await tools.write_note({ text: 'x' });" } }] };
    const allowed = { calls: [{ id: "c2", name: "codemode", input: { js: "return await tools.write_note({ text: 'y' });" } }] };
    kernel = await startActive("p", { profiles: { p: profile({ codemode: { enable: true } }) }, replies: [blocked, search("s1", "write note"), allowed, finish], setup: (app) => app.plugin(ToolsExtension) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    const entries = await readEvents(runtime.home);
    const outputs = toolOutputs(entries);
    expect(outputs[0]).toEqual({ error: 'Tool "write_note" is not in the current catalog; call search to discover it' });
    expect(outputs[2]).toEqual({ saved: "y" });
    const written = catalogs(entries);
    expect(written.map((data) => [data.kind, data.mode, data.visible])).toEqual([
      ["baseline", "codemode", ["read", "send_message"]],
      ["delta", "codemode", ["read", "send_message", "write_note"]],
    ]);
    expect(written[1].text).toBe("Code mode capability update: +1 \u22120. Callable inside codemode programs as await tools.<name>(input):\n```ts\n/** Write a note to the notebook. */\ndeclare function write_note(input: {\n  text: string;\n}): Promise<unknown>;\n```");
    const codemode = kernel.model.prompts[0].tools?.find((t) => t.name === "codemode");
    expect(codemode?.type === "function" && codemode.description).toContain('latest "Code mode capability update" messages');
    expect(kernel.model.prompts.map((prompt) => prompt.tools?.map((t) => t.name))).toEqual(Array(4).fill(["read", "send_message", "finish", "wait", "codemode", "search"]));
    const userTexts = kernel.model.prompts[2].prompt.filter((message) => message.role === "user");
    expect(userTexts).toHaveLength(3);
  });

  it("CT-34 a context window without the latest baseline gets it and the later deltas back, not persisted", async () => {
    class Forgetful extends ContextEngine<"standard"> {
      constructor(ctx: Context) {
        super(ctx, "forgetful" as "standard");
      }
      [ContextEngine.invoke](): ContextEngineInstance {
        return { renderMessages: async (messages) => messages.slice(-2) };
      }
    }
    offered = baseTools;
    const replies = [search("s1", "write note"), search("s2", "mute member"), finish];
    kernel = await startActive("p", { profiles: { p: profile({ context: { engine: "forgetful" } }) }, replies, setup: (app) => { app.plugin(ToolsExtension); app.plugin(Forgetful); } });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    const written = catalogs(await readEvents(runtime.home));
    expect(written.map((data) => data.kind)).toEqual(["baseline", "delta", "delta"]);
    const third = promptTexts(kernel.model.prompts[2]).filter((text) => text.startsWith("user:Tool catalog"));
    expect(third).toEqual(written.map((data) => `user:${data.text}`));
    expect(catalogs(await readEvents(runtime.home))).toHaveLength(3);
  });

  it("CT-30 parallel searches in one step coalesce into one delta", async () => {
    offered = baseTools;
    const both = { calls: [{ id: "s1", name: "search", input: { query: "write note" } }, { id: "s2", name: "search", input: { query: "mute member" } }] };
    kernel = await startActive("p", { profiles: { p: profile() }, replies: [both, finish], setup: (app) => app.plugin(ToolsExtension) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    const written = catalogs(await readEvents(runtime.home));
    expect(written.map((data) => data.kind)).toEqual(["baseline", "delta"]);
    expect(written[1].added.map((tool) => tool.name).sort()).toEqual(["mute_member", "write_note"]);
  });

  it("CT-31 a failing initialisation assembly writes nothing; the next turn's first step writes the baseline", async () => {
    let calls = 0;
    offered = () => {
      calls += 1;
      if (calls === 1) throw new Error("MCP server not ready");
      return baseTools();
    };
    kernel = await startActive("p", { profiles: { p: profile() }, replies: [finish], setup: (app) => app.plugin(ToolsExtension) });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    expect(catalogs(await readEvents(runtime.home))).toEqual([]);
    expect(kernel.logs.some(([, line]) => line.includes("toolsearch: initial tool assembly failed: MCP server not ready"))).toBe(true);
    runtime.wake();
    await runtime.agent.wait();
    expect(catalogs(await readEvents(runtime.home)).map((data) => data.kind)).toEqual(["baseline"]);
  });
});
