import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { createFixtureServer } from "./fixtures/fixture-server.mjs";
import { ODD, reference, SILENT } from "./reference.js";
import { alive, call, channel, failure, invokeMcp, startKernel, stdio, until, writeJson, type Kernel } from "./support.js";

const bare = { bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } };

let kernel: Kernel | undefined;
const servers: Server[] = [];
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function withServers(mcpServers: Record<string, unknown>, options: { connectWaitMs?: number } = {}) {
  kernel = await startKernel(bare, { ...options, prepare: (dir) => writeJson(join(dir, ".mcp.json"), { mcpServers }) });
  return invokeMcp(kernel);
}

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const warnings = (name: string) => kernel!.logs.filter((line) => line.includes(" warn: ") && line.includes(`"${name}"`));

describe("lenient listing", () => {
  it("MC-12 a tool whose inputSchema lacks type object is dropped alone, with one warning; the others serve", async () => {
    const { tools } = await withServers({ odd: reference(ODD) });
    const names = Object.keys(await tools());
    expect(names).toContain("odd-good");
    expect(names).not.toContain("odd-bad");
    expect(await call(await tools(), "odd-good", {})).toEqual([{ type: "text", text: "good answer" }]);
    const warned = warnings("odd");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('"bad": inputSchema.type');
    expect(warned[0]).not.toContain("\n");
  });

  it("MC-13 a tool that requires tasks from a server without task support is not listed, and says why", async () => {
    const { tools } = await withServers({ odd: reference(ODD) });
    expect(Object.keys(await tools())).not.toContain("odd-needs-task");
    expect(warnings("odd")[0]).toContain('"needs-task": requires task-based execution, which the server does not offer');
  });

  it("MC-13 a server's McpError text keeps one MCP error prefix and names the tool", async () => {
    const { tools } = await withServers({ odd: reference(ODD) });
    expect(await failure(await tools(), "odd-fail")).toEqual({ name: "ToolError", message: 'MCP tool "odd-fail" failed: MCP error -32602: no tool fail here' });
  });
});

describe("connecting", () => {
  it("MC-6 a server that never answers initialize does not hold the first turn; the ready server's tools are in it", async () => {
    // Accepts every request and never answers.
    const slow = await listen(createServer(() => undefined));
    kernel = await startKernel(
      { alice: { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { "mcp-client": {} } } },
      {
        connectWaitMs: 2_000,
        prepare: (dir) => writeJson(join(dir, ".mcp.json"), { mcpServers: { slow: { type: "http", url: slow, connectTimeoutMs: 120_000 }, fx: stdio() } }),
      },
    );
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("alice", channel());
    runtime.wake("hello");
    // The old client waited for connectTimeoutMs (120 s here); this bound is the test's own.
    await until(() => kernel!.prompts.length >= 1, 15_000);
    await runtime.agent.wait();
    const names = kernel.prompts[0].tools?.map((tool) => tool.name) ?? [];
    expect(names).toContain("fx-echo");
    expect(names.some((name) => name.startsWith("slow-"))).toBe(false);
    expect(kernel.logs.some((line) => line.includes('MCP server "slow" connect'))).toBe(false);
  });

  it("MC-7 stopping while a stdio server's connect is pending ends its child", async () => {
    let dir = "";
    kernel = await startKernel(bare, {
      connectWaitMs: 0,
      prepare: async (path) => {
        dir = path;
        await writeJson(join(path, ".mcp.json"), { mcpServers: { mute: reference(SILENT, [], { env: { PID_FILE: join(path, "mute.pid") }, connectTimeoutMs: 120_000 }) } });
      },
    });
    await invokeMcp(kernel);
    let pid = 0;
    await until(async () => (pid = Number(await readFile(join(dir, "mute.pid"), "utf8").catch(() => "0"))) > 0);
    expect(alive(pid)).toBe(true);
    const stopping = kernel.app.stop();
    // The SDK ends stdin, then sends SIGTERM after 2 s: a child that ignores stdin ends by then.
    await until(() => !alive(pid), 8_000);
    await stopping;
  });

  it("MC-9 MC-17 a child that exits at start logs the cause from its stderr with the connect failure", async () => {
    await withServers({ broken: stdio({ env: { FIXTURE_EXIT: "1" } }) });
    await until(() => warnings("broken").length > 0);
    expect(warnings("broken")[0]).toMatch(/MCP server "broken" connect failed: .*stderr: fixture: no config, exiting/);
  });
});

describe("sessions", () => {
  it("MC-8 a server that answers 404 for the session (it restarted, its streams intact) gets a new session; the call that met it names the server", async () => {
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const url = await listen(
      createServer((req, res) => {
        const id = req.headers["mcp-session-id"];
        if (typeof id === "string") {
          const known = sessions.get(id);
          if (known) return void known.handleRequest(req, res);
          res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
          return;
        }
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (session) => void sessions.set(session, transport),
        });
        void createFixtureServer({ resources: false }).connect(transport).then(() => transport.handleRequest(req, res));
      }),
    );
    const { tools } = await withServers({ web: { type: "http", url } });
    const set = await tools();
    expect(await call(set, "web-echo", { text: "one" })).toEqual([{ type: "text", text: "echo: one" }]);
    // Forget every session, as a restarted server would, without closing any stream.
    sessions.clear();
    const lost = await failure(set, "web-echo", { text: "two" });
    expect(lost.message).toMatch(/^MCP server "web" connection lost during the call \(.*404.*\); reconnecting, attempt 1$/);
    await until(() => kernel!.logs.some((line) => line.includes('MCP server "web" connected after 1 attempt(s)')), 8_000);
    expect(await call(set, "web-echo", { text: "three" })).toEqual([{ type: "text", text: "echo: three" }]);
  });
});
