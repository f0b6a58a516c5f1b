import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ResourceError } from "koishi-plugin-ishiki";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFixtureServer, PNG_BASE64 } from "./fixtures/fixture-server.mjs";
import { call, invokeMcp, startKernel, stdio, until, whoami, writeJson, type Kernel } from "./support.js";

const bare = { bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } };

let kernel: Kernel | undefined;
let http: Server | undefined;
let url = "";
const seen: IncomingHttpHeaders[] = [];

/** A stateless streamable HTTP MCP server on 127.0.0.1: one fixture server per request. */
beforeEach(async () => {
  http = createServer((req, res) => {
    seen.push(req.headers);
    const server = createFixtureServer({ instructions: "Served over HTTP.", headers: () => ({ ...req.headers }), resources: !req.url?.includes("bare") });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http!.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  seen.length = 0;
});

async function withServers(mcpServers: Record<string, unknown>) {
  kernel = await startKernel(bare, { prepare: (dir) => writeJson(join(dir, ".mcp.json"), { mcpServers }) });
  return invokeMcp(kernel);
}

async function resourceError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ResourceError);
    return `${(error as ResourceError).code}: ${(error as Error).message}`;
  }
  throw new Error("read did not fail");
}

describe("streamable HTTP", () => {
  it("MC-4 MC-15 MC-17 an http server serves calls with its headers and instructions; header values are not logged", async () => {
    const { tools, instance } = await withServers({ web: { type: "http", url: `${url}?bare`, headers: { Authorization: "Bearer http-secret-42" } } });
    const set = await tools();
    expect(await call(set, "web-echo", { text: "over http" })).toEqual([{ type: "text", text: "echo: over http" }]);
    expect((await whoami(set, "web-whoami")).headers?.authorization).toBe("Bearer http-secret-42");
    expect(seen.every((headers) => headers.authorization === "Bearer http-secret-42")).toBe(true);
    expect(await instance.extendInstructions!()).toBe("### MCP server web\nServed over HTTP.");
    expect(kernel!.logs.join("\n")).not.toContain("http-secret-42");
  });
});

describe("legacy HTTP+SSE", () => {
  let sse: Server | undefined;
  afterEach(async () => {
    sse?.closeAllConnections();
    await new Promise((resolve) => sse?.close(resolve));
  });

  it("MC-4 an sse server serves calls with its headers", async () => {
    const sessions = new Map<string, SSEServerTransport>();
    sse = createServer((req, res) => {
      if (req.method === "GET") {
        const transport = new SSEServerTransport("/messages", res);
        sessions.set(transport.sessionId, transport);
        void createFixtureServer({ headers: () => ({ ...req.headers }) }).connect(transport);
        return;
      }
      const session = new URL(req.url ?? "/", "http://127.0.0.1").searchParams.get("sessionId") ?? "";
      void sessions.get(session)?.handlePostMessage(req, res);
    });
    await new Promise<void>((resolve) => sse!.listen(0, "127.0.0.1", resolve));
    const sseUrl = `http://127.0.0.1:${(sse.address() as AddressInfo).port}/sse`;
    const { tools } = await withServers({ old: { type: "sse", url: sseUrl, headers: { "X-Api-Key": "sse-key" } } });
    const set = await tools();
    expect(await call(set, "old-echo", { text: "via sse" })).toEqual([{ type: "text", text: "echo: via sse" }]);
    expect((await whoami(set, "old-whoami")).headers?.["x-api-key"]).toBe("sse-key");
  });
});

describe("mcp:// resources", () => {
  it("MC-16 text and blob contents; the tail after <server>/ goes verbatim to resources/read", async () => {
    const { host } = await withServers({ fx: stdio(), web: { type: "http", url } });
    expect(host.resources.listSchemes()).toContain("mcp");
    const text = await host.resources.resolve("mcp://fx/note://hello");
    expect(text).toMatchObject({ type: "text", url: "mcp://fx/note://hello", text: "# hello resource", mediaType: "text/markdown" });
    const blob = await host.resources.resolve("mcp://web/blob://dot");
    expect(blob).toMatchObject({ type: "file", mediaType: "image/png", immutable: false });
    expect(Buffer.from((blob as { bytes: Uint8Array }).bytes).toString("base64")).toBe(PNG_BASE64);
  });

  it("MC-16 missing server or URI, unknown or disconnected server, and no content fail with their codes", async () => {
    const { host } = await withServers({ fx: stdio(), down: stdio({ env: { FIXTURE_EXIT: "1" } }) });
    await host.resources.resolve("mcp://fx/note://hello");
    expect(await resourceError(host.resources.resolve("mcp://fx"))).toBe("invalid_resource_uri: mcp://fx: expected mcp://<server>/<resource-uri>");
    expect(await resourceError(host.resources.resolve("mcp:///note://hello"))).toMatch(/^invalid_resource_uri: /);
    expect(await resourceError(host.resources.resolve("mcp://nope/note://hello"))).toBe('resource_unavailable: mcp://nope/note://hello: unknown MCP server "nope"');
    expect(await resourceError(host.resources.resolve("mcp://down/note://hello"))).toBe('resource_unavailable: mcp://down/note://hello: MCP server "down" is not connected');
    expect(await resourceError(host.resources.resolve("mcp://fx/empty://none"))).toBe("resource_not_found: mcp://fx/empty://none: the server returned no content");
    // The SDK's server answers an unknown URI with InvalidParams, not MCP's -32002: a read failure.
    expect(await resourceError(host.resources.resolve("mcp://fx/note://missing"))).toMatch(/^resource_read_failed: /);
  });

  it("MC-16 the scheme is detached when the instance stops", async () => {
    const { host, instance } = await withServers({ fx: stdio() });
    expect(host.resources.listSchemes()).toContain("mcp");
    await instance.stop!();
    expect(host.resources.listSchemes()).not.toContain("mcp");
  });
});
