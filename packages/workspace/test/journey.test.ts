import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { IshikiEvent } from "koishi-plugin-ishiki";
import { channel, startKernel, until, type Kernel, type ScriptedReply } from "./support.js";

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

/** 10,000 lines, every 20th a `TODO:` line (500 in all); the other lines are unique so a copy is detectable. */
function notes(): { text: string; todos: string[] } {
  const lines: string[] = [];
  const todos: string[] = [];
  for (let i = 1; i <= 10_000; i++) {
    if (i % 20 === 0) {
      const todo = `TODO: task number ${i / 20} from line ${i}`;
      todos.push(todo);
      lines.push(todo);
    } else lines.push(`note line ${i}: nothing to do here, just thinking about item ${i * 7}`);
  }
  return { text: `${lines.join("\n")}\n`, todos };
}

/** The seed journey's program (seed 000): intermediate data stays in the program, only the summary returns. */
export const JOURNEY_PROGRAM = [
  'const notes = await tools.read({ url: "workspace:///home/workspace/notes.txt" });',
  'const todos = notes.text.split("\\n").filter((line: string) => line.startsWith("TODO:"));',
  'await tools.write_file({ path: "tasks.txt", content: todos.join("\\n") + "\\n" });',
  'return { count: todos.length, url: "workspace:///home/workspace/tasks.txt" };',
].join("\n");

interface StoredEntry {
  type: string;
  data: { role?: string; type?: string; content?: unknown };
}

async function storedEntries(home: string): Promise<{ raw: string; entries: StoredEntry[] }> {
  const raw = await readFile(join(home, "events.jsonl"), "utf8");
  return { raw, entries: raw.split("\n").filter(Boolean).map((line) => JSON.parse(line) as StoredEntry) };
}

function toolResults(entries: StoredEntry[]): Array<{ toolName: string; output: unknown }> {
  const out: Array<{ toolName: string; output: unknown }> = [];
  for (const entry of entries) {
    if (entry.type !== "message" || entry.data.role !== "tool" || !Array.isArray(entry.data.content)) continue;
    for (const part of entry.data.content as Array<{ type: string; toolName: string; output: unknown }>) if (part.type === "tool-result") out.push({ toolName: part.toolName, output: part.output });
  }
  return out;
}

describe("seed journey with codemode and the workspace", () => {
  it("CT-1 CT-8 CT-17 seed journey: a program reads 10,000 lines through workspace://, writes 500 TODO lines with write_file and returns only { count, url }", async () => {
    const { text, todos } = notes();
    const replies: ScriptedReply[] = [
      { calls: [{ id: "p1", name: "codemode", input: { js: JOURNEY_PROGRAM } }] },
      { calls: [{ id: "f1", name: "finish" }] },
    ];
    kernel = await startKernel({ alice: { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { workspace: {} }, codemode: { enable: true } } }, replies);
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("alice", channel);
    await mkdir(join(runtime.home, "workspace"), { recursive: true });
    await writeFile(join(runtime.home, "workspace", "notes.txt"), text);
    runtime.wake("Collect my TODOs into tasks.txt.");
    await until(() => kernel!.model.prompts.length >= 2, 10_000);
    await runtime.agent.wait();

    const first = kernel.model.prompts[0].tools?.map((tool) => tool.name);
    expect(first).toContain("codemode");
    expect(first).not.toContain("write_file");
    const { raw, entries } = await storedEntries(runtime.home);
    const results = toolResults(entries);
    expect(results[0]).toEqual({ toolName: "codemode", output: { type: "json", value: { count: 500, url: "workspace:///home/workspace/tasks.txt" } } });
    const secondPrompt = JSON.stringify(kernel.model.prompts[1].prompt);
    expect(secondPrompt).toContain('{"count":500,"url":"workspace:///home/workspace/tasks.txt"}');
    expect(secondPrompt).not.toContain("note line 4321");
    expect(raw).not.toContain("note line 4321");
    expect(raw).not.toContain(todos[123]);
    expect(await readFile(join(runtime.home, "workspace", "tasks.txt"), "utf8")).toBe(`${todos.join("\n")}\n`);
  });
});

/** The OV-20 program: checks the raw read result, writes with an absolute path. */
const OV_PROGRAM = [
  'const notes = await tools.read({ url: "workspace:///home/workspace/notes.txt" });',
  'if (notes.type !== "text") throw new Error("notes.txt is not text");',
  'const todos = notes.text.split("\\n").filter((line: string) => line.startsWith("TODO:"));',
  'await tools.write_file({ path: "/home/workspace/tasks.txt", content: todos.join("\\n") + "\\n" });',
  'return { count: todos.length, url: "workspace:///home/workspace/tasks.txt" };',
].join("\n");

function mention(text: string): IshikiEvent {
  const timestamp = Date.UTC(2026, 10, 30, 1, 2);
  const data = { timestamp, platform: "mock", selfId: "bot", channelId: "c1", isDirect: false, messageId: "m1", content: `<at id="bot"/> ${text}`, user: { id: "u1", name: "Alice" } };
  return { id: "fact-1", timestamp, role: "custom", type: "ishiki.message.created", data };
}

function label(entry: StoredEntry): string {
  if (entry.type === "event") return (entry.data as { type: string }).type;
  if (entry.type !== "message") return entry.type;
  const { role, type, content } = entry.data;
  if (role === "custom") return type === "ishiki.message.created" ? "fact" : type === "ishiki.tools.catalog" ? `catalog:${(entry.data as { data: { kind: string } }).data.kind}` : String(type);
  if (role === "assistant" || role === "tool") return `${role}:${(content as Array<{ type: string; toolName?: string }>).filter((part) => part.toolName).map((part) => part.toolName).join(",")}`;
  return String(role);
}

describe("overview journey: toolsearch + codemode + workspace (OV-17 .. OV-24)", () => {
  it("OV-17 OV-18 OV-19 OV-20 OV-21 OV-22 OV-23 OV-24 search write_file, delta catalog, program, send_message, stored order", async () => {
    const { text, todos } = notes();
    const replies: ScriptedReply[] = [
      { calls: [{ id: "s1", name: "search", input: { query: "write_file" } }] },
      { calls: [{ id: "p1", name: "codemode", input: { js: OV_PROGRAM } }] },
      { calls: [{ id: "m1", name: "send_message", input: { messages: ["500 TODOs are in tasks.txt."] } }] },
      { text: "never asked" },
    ];
    const profile = { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { workspace: {} }, codemode: { enable: true }, toolsearch: { enable: true } };
    kernel = await startKernel({ alice: profile }, replies);
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const sent: string[] = [];
    kernel.app.ishiki.outbound = { send: async (_address: unknown, content: string) => (sent.push(content), [`id-${sent.length}`]) } as never;
    const runtime = await kernel.app.ishiki.runtime("alice", channel);
    await mkdir(join(runtime.home, "workspace"), { recursive: true });
    await writeFile(join(runtime.home, "workspace", "notes.txt"), text);

    // OV-17: the baseline is written at creation, before any fact.
    const atCreation = (await storedEntries(runtime.home)).entries.map(label);
    expect(atCreation).toEqual(["catalog:baseline"]);
    const toolEvents: string[] = [];
    runtime.agent.channel.subscribe("agent", (event) => {
      if (event.type === "tool.start" || event.type === "tool.done") toolEvents.push(`${event.type}:${event.toolName}`);
    });

    await runtime.deliver(mention("collect my TODOs"));
    await until(async () => (await storedEntries(runtime.home)).entries.map(label).includes("turn.done"), 15_000);
    await runtime.agent.wait();

    const [step0, step1, step2] = kernel.model.prompts;
    expect(kernel.model.prompts).toHaveLength(3);
    expect(step0.tools?.map((tool) => tool.name)).toEqual(["read", "send_message", "finish", "wait", "codemode", "search"]);
    expect(step1.tools?.map((tool) => tool.name)).toEqual(["read", "send_message", "finish", "wait", "codemode", "search"]);
    const { raw, entries } = await storedEntries(runtime.home);
    const catalogs = entries.filter((entry) => entry.data.type === "ishiki.tools.catalog").map((entry) => (entry.data as unknown as { data: { kind: string; mode: string; visible: string[]; text: string } }).data);
    const results = toolResults(entries);
    const hits = (results[0].output as { value: { tools: Array<{ name: string; status: string }> } }).value.tools;
    expect(hits[0]).toMatchObject({ name: "write_file", status: "new" });
    expect(catalogs.map((data) => [data.kind, data.mode])).toEqual([["baseline", "codemode"], ["delta", "codemode"]]);
    expect(catalogs[0].visible).toEqual(["read", "send_message"]);
    expect(catalogs[1].visible).toEqual(expect.arrayContaining(["read", "send_message", "write_file"]));
    expect(catalogs[1].visible.slice(2).sort()).toEqual(hits.map((hit) => hit.name).sort());
    expect(catalogs[1].text).toContain("declare function write_file(input: {");
    expect(JSON.stringify(step1.prompt)).toContain(`Code mode capability update: +${hits.length}`);
    expect(JSON.stringify(step0.prompt)).not.toContain("declare function write_file");

    expect(results.map((result) => result.toolName)).toEqual(["search", "codemode", "send_message"]);
    expect(results[1].output).toEqual({ type: "json", value: { count: 500, url: "workspace:///home/workspace/tasks.txt" } });
    expect(results[2].output).toEqual({ type: "json", value: { ok: true, ids: ["id-1"] } });
    expect(toolEvents).toEqual(["tool.start:search", "tool.done:search", "tool.start:codemode", "tool.start:read", "tool.done:read", "tool.start:write_file", "tool.done:write_file", "tool.done:codemode", "tool.start:send_message", "tool.done:send_message"]);
    expect(sent).toEqual(["500 TODOs are in tasks.txt."]);

    expect(entries.map(label)).toEqual([
      "catalog:baseline", "fact", "turn.start",
      "assistant:search", "tool:search", "catalog:delta",
      "assistant:codemode", "tool:codemode",
      "assistant:send_message", "tool:send_message",
      "turn.done",
    ]);
    expect(raw).not.toContain("note line 4321");
    expect(raw).not.toMatch(/"data":"[A-Za-z0-9+/]{200,}/);
    expect(entries.some((entry) => entry.data.type === "ishiki.attachment")).toBe(false);
    expect(await readFile(join(runtime.home, "workspace", "tasks.txt"), "utf8")).toBe(`${todos.join("\n")}\n`);
  });
});
