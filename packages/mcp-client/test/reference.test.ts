import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EVERYTHING, FILESYSTEM, MEMORY, reference, startEverything, type RemoteServer } from "./reference.js";
import { call, channel, entries, failure, invokeMcp, startKernel, toolOutputs, until, writeJson, type Kernel } from "./support.js";

const bare = { bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } };
const profile = { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { "mcp-client": {} } };

let kernel: Kernel | undefined;
const remotes: RemoteServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  await Promise.all(remotes.splice(0).map((remote) => remote.kill()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function withServers(mcpServers: Record<string, unknown>) {
  kernel = await startKernel(bare, { prepare: (dir) => writeJson(join(dir, ".mcp.json"), { mcpServers }) });
  return invokeMcp(kernel);
}

async function everything(mode: "streamableHttp" | "sse", port = 0): Promise<RemoteServer> {
  const remote = await startEverything(mode, port);
  remotes.push(remote);
  return remote;
}

/** The outcome of a call: "resolved" or its error message. */
function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "resolved",
    (error: Error) => error.message,
  );
}

/** `settled`, or "pending" if it has not settled within `ms`. */
async function within(settled: Promise<string>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("pending"), ms)));
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("server-everything over stdio", () => {
  it("MC-16 a resource_link arrives as an mcp:// URL that the model reads through read; a text/plain blob is text", async () => {
    kernel = await startKernel(
      { alice: profile },
      {
        prepare: (dir) => writeJson(join(dir, ".mcp.json"), { mcpServers: { everything: reference(EVERYTHING, ["stdio"]) } }),
        replies: [
          { calls: [{ id: "l", name: "everything-get-resource-links", input: { count: 2 } }] },
          { calls: [{ id: "r", name: "read", input: { url: "mcp://everything/demo://resource/dynamic/blob/1" } }] },
          { calls: [{ id: "f", name: "finish" }] },
        ],
      },
    );
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("alice", channel());
    runtime.wake("Show me the links and read the first.");
    await until(() => kernel!.prompts.length >= 3, 15_000);
    await runtime.agent.wait();
    const outputs = JSON.stringify(toolOutputs(await entries(runtime.home)));
    expect(outputs).toContain("mcp://everything/demo://resource/dynamic/blob/1");
    expect(outputs).toContain("mcp://everything/demo://resource/dynamic/text/2");
    // The blob is text/plain: read shows its text, no attachment.
    expect(outputs).toMatch(/Resource 1: This is a base64 blob created at/);
    const list = await entries(runtime.home);
    expect(list.filter((entry) => entry.type === "message" && entry.data.type === "ishiki.attachment")).toHaveLength(0);
  });

  it("MC-15 MC-16 resources and resource templates are named in the instructions and listed at mcp://<server>/", async () => {
    const { instance, host } = await withServers({ everything: reference(EVERYTHING, ["stdio"]) });
    const instructions = await instance.extendInstructions!();
    expect(instructions).toContain("### MCP server everything\n");
    expect(instructions).toContain("### MCP resources\n");
    expect(instructions).toMatch(/Server everything \(\d+ resource\(s\), 2 template\(s\)/);
    expect(instructions).toContain("- mcp://everything/demo://resource/static/document/");
    const listing = await host.resources.resolve("mcp://everything/");
    expect(listing.type).toBe("text");
    const text = (listing as { text: string }).text;
    expect(text).toContain("- mcp://everything/demo://resource/dynamic/text/{resourceId} (template)");
    expect(text).toContain("- mcp://everything/demo://resource/dynamic/blob/{resourceId} (template)");
    const filled = await host.resources.resolve("mcp://everything/demo://resource/dynamic/text/7");
    expect(filled).toMatchObject({ type: "text", mediaType: "text/plain" });
    expect((filled as { text: string }).text).toMatch(/^Resource 7: This is a plaintext resource/);
  });

  it("MC-12 an embedded resource whose blob is text/plain reaches the model as text", async () => {
    const { tools } = await withServers({ everything: reference(EVERYTHING, ["stdio"]) });
    const blocks = await call<Array<{ type: string; resource?: { text?: string; blob?: string } }>>(await tools(), "everything-get-resource-reference", { resourceType: "Blob", resourceId: 3 });
    const embedded = blocks.find((block) => block.type === "resource");
    expect(embedded?.resource?.blob).toBeUndefined();
    expect(embedded?.resource?.text).toMatch(/^Resource 3: This is a base64 blob/);
  });

  it("MC-13 progress notifications restart the per-call timeout: a 3 s operation reporting every 0.5 s passes a 1.5 s timeout", async () => {
    const { tools } = await withServers({ everything: reference(EVERYTHING, ["stdio"], { timeout: 1500 }) });
    const set = await tools();
    const done = await call<Array<{ text: string }>>(set, "everything-trigger-long-running-operation", { duration: 3, steps: 6 });
    expect(done[0].text).toContain("Long running operation completed");
    expect(kernel!.logs.filter((line) => line.includes("MCP call everything-trigger-long-running-operation"))).toEqual([
      expect.stringMatching(/: \d+ ms, [3-6] progress update\(s\)$/),
    ]);
  });

  it("MC-13 a tool with execution.taskSupport required runs as an MCP task", async () => {
    const { tools } = await withServers({ everything: reference(EVERYTHING, ["stdio"]) });
    // Registered once the server knows the client's capabilities; it arrives with tools/list_changed.
    await until(async () => (await tools())["everything-simulate-research-query"] !== undefined);
    const blocks = await call<Array<{ type: string; text: string }>>(await tools(), "everything-simulate-research-query", { topic: "tasks" });
    expect(blocks.map((block) => block.text).join("\n")).toContain("# Research Report: tasks");
  });
});

describe("Chinese server names", () => {
  it("MC-10 MC-11 two Chinese-named servers (server-memory, server-filesystem) both keep an ASCII prefix and serve calls", async () => {
    const root = await mkdtemp(join(tmpdir(), "ishiki-mcp-fs-"));
    dirs.push(root);
    const { tools, host } = await withServers({
      记忆: reference(MEMORY, [], { env: { MEMORY_FILE_PATH: join(root, "memory.jsonl") } }),
      文件: reference(FILESYSTEM, [root]),
    });
    const set = await tools();
    const names = Object.keys(set);
    expect(names).toContain("Ji_Yi-read_graph");
    expect(names).toContain("Wen_Jian-list_directory");
    expect(names.every((name) => /^[A-Za-z0-9_-]{1,64}$/.test(name))).toBe(true);
    expect(kernel!.logs.some((line) => line.includes("collides"))).toBe(false);
    await call(set, "Ji_Yi-create_entities", { entities: [{ name: "小明", entityType: "person", observations: ["likes tea"] }] });
    expect(JSON.stringify(await call(set, "Ji_Yi-read_graph", {}))).toContain("likes tea");
    expect(JSON.stringify(await call(set, "Wen_Jian-list_directory", { path: root }))).toContain("memory.jsonl");
    // Both the configured name and the prefix open the server's resources.
    expect((await host.resources.resolve("mcp://Ji_Yi/")).type).toBe("text");
    expect((await host.resources.resolve("mcp://记忆/")).type).toBe("text");
  });
});

describe("server-everything over streamable HTTP and SSE", () => {
  it("MC-8 a restart of the HTTP server mid-session: calls fail naming the server, then work again after the backoff", async () => {
    const first = await everything("streamableHttp");
    const { tools } = await withServers({ web: { type: "http", url: first.url } });
    const set = await tools();
    expect(await call(set, "web-echo", { message: "before" })).toEqual([{ type: "text", text: "Echo: before" }]);
    await first.kill();
    const down = await failure(set, "web-echo", { message: "down" });
    expect(down.name).toBe("ToolError");
    expect(down.message).toMatch(/^MCP server "web" (is not connected \(reconnecting, attempt \d+\)|connection lost during the call)/);
    await everything("streamableHttp", first.port);
    // Attempt 1 comes 1 s after the loss, attempt 2 2 s later: well within this bound, and never without a reconnect.
    await until(() => call(set, "web-echo", { message: "after" }).then(() => true, () => false), 10_000);
    expect(await call(set, "web-echo", { message: "after" })).toEqual([{ type: "text", text: "Echo: after" }]);
    expect(kernel!.logs.some((line) => /MCP server "web" connected after \d+ attempt\(s\)/.test(line))).toBe(true);
  });

  it("MC-8 MC-13 a remote server killed mid-call fails the call within 2 s, naming the server (streamable HTTP and SSE)", async () => {
    const http = await everything("streamableHttp");
    const sse = await everything("sse");
    const { tools } = await withServers({ web: { type: "http", url: http.url, timeout: 0 }, old: { type: "sse", url: sse.url, timeout: 0 } });
    const set = await tools();
    for (const [name, remote] of [["web", http], ["old", sse]] as const) {
      const settled = outcome(call(set, `${name}-trigger-long-running-operation`, { duration: 60, steps: 60 }));
      // Long enough for the request to reach the server; the operation's first step takes 1 s.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await remote.kill();
      expect(await within(settled, 2_000)).toMatch(new RegExp(`^MCP server "${name}" connection lost during the call`));
    }
  });
});
