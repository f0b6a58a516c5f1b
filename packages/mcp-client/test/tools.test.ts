import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { alive, call, failure, invokeMcp, startKernel, stdio, until, whoami, writeJson, type Kernel } from "./support.js";

const bare = { bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } };

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

async function withServers(mcpServers: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  kernel = await startKernel(bare, { prepare: (dir) => writeJson(join(dir, ".mcp.json"), { mcpServers, ...extra }) });
  return invokeMcp(kernel);
}

describe("tools of a stdio server", () => {
  it("MC-10 MC-12 names are <server>-<tool>, sorted; the server's input schema; execute returns the content blocks", async () => {
    const { tools } = await withServers({ "my fx": stdio() });
    const set = await tools();
    expect(Object.keys(set)).toEqual(["my_fx-echo", "my_fx-fail", "my_fx-hang", "my_fx-long", "my_fx-shot", "my_fx-stats", "my_fx-switch", "my_fx-whoami"]);
    expect(await call(set, "my_fx-echo", { text: "hi" })).toEqual([{ type: "text", text: "echo: hi" }]);
    const schema = await (set["my_fx-echo"].inputSchema as { jsonSchema: unknown }).jsonSchema;
    expect(schema).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    const output = await set["my_fx-shot"].toModelOutput!({ toolCallId: "x", input: {}, output: [{ type: "text", text: "a" }] } as never);
    expect(output).toEqual({ type: "json", value: [{ type: "text", text: "a" }] });
  });

  it("MC-12 a declared output schema: execute returns the structured content, the model still gets the raw blocks", async () => {
    const { tools } = await withServers({ fx: stdio() });
    const set = await tools();
    expect(await (set["fx-stats"].outputSchema as { jsonSchema: unknown }).jsonSchema).toMatchObject({ type: "object", properties: { count: { type: "number" } } });
    expect(await (set["fx-echo"].outputSchema as { jsonSchema: unknown }).jsonSchema).toMatchObject({ type: "array" });
    const output = await call(set, "fx-stats", {});
    expect(output).toEqual({ count: 3 });
    expect(await set["fx-stats"].toModelOutput!({ toolCallId: "x", input: {}, output } as never)).toEqual({ type: "json", value: [{ type: "text", text: "3 items" }] });
  });

  it("MC-13 isError becomes a ToolError with the block texts joined by newlines", async () => {
    const { tools } = await withServers({ fx: stdio() });
    expect(await failure(await tools(), "fx-fail", { text: "boom" })).toEqual({ name: "ToolError", message: "boom\nsecond line" });
  });

  it("MC-13 the per-server timeout fails with the timed-out ToolError", async () => {
    const { tools } = await withServers({ fx: stdio({ timeout: 300 }) });
    expect(await failure(await tools(), "fx-hang")).toEqual({ name: "ToolError", message: 'MCP tool "fx-hang" timed out after 300 ms' });
  });

  it("MC-13 the call's abort signal cancels the request on the server", async () => {
    const { tools } = await withServers({ fx: stdio({ timeout: 0 }) });
    const set = await tools();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("turn aborted")), 200);
    const error = await failure(set, "fx-hang", {}, controller.signal);
    expect(error.message).toContain("turn aborted");
    await until(() => kernel!.logs.some((line) => line.includes('MCP server "fx" stderr: hang cancelled')));
  });

  it("MC-4 MC-17 stdio env holds only the configured keys plus the SDK's safe set; cwd is relative to the config file; env values are not logged", async () => {
    process.env.ISHIKI_HOST_SECRET = "host-only";
    try {
      const { tools } = await withServers({ fx: stdio({ env: { FX_TOKEN: "s3cret-token" }, cwd: "profiles" }) });
      const facts = await whoami(await tools(), "fx-whoami");
      expect(facts.env.FX_TOKEN).toBe("s3cret-token");
      expect(facts.env.ISHIKI_HOST_SECRET).toBeUndefined();
      expect(Object.keys(facts.env).every((key) => key === "FX_TOKEN" || ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"].includes(key))).toBe(true);
      expect(facts.cwd).toBe(join(kernel!.dir, "profiles"));
      expect(kernel!.logs.join("\n")).not.toContain("s3cret-token");
    } finally {
      delete process.env.ISHIKI_HOST_SECRET;
    }
  });

  it("MC-14 tools/list_changed rebuilds the server's tools for the next assembly", async () => {
    const { tools } = await withServers({ fx: stdio() });
    const before = await tools();
    expect(before["fx-extra"]).toBeUndefined();
    expect(await tools()).toBe(before);
    await call(before, "fx-switch", {});
    await until(async () => (await tools())["fx-extra"] !== undefined);
    expect(await call(await tools(), "fx-extra", {})).toEqual([{ type: "text", text: "extra here" }]);
    await call(before, "fx-switch", {});
    await until(async () => (await tools())["fx-extra"] === undefined);
    expect(kernel!.logs.some((line) => line.includes('MCP server "fx" relisted'))).toBe(true);
  });

  it("MC-11 a server whose folded names collide with an earlier server's is skipped with an error naming both", async () => {
    const { tools } = await withServers({ "a.b": stdio(), "a b": stdio() });
    const names = Object.keys(await tools());
    expect(names).toContain("a_b-echo");
    expect(names.filter((name) => name === "a_b-echo")).toHaveLength(1);
    expect(kernel!.logs.some((line) => line.includes('MCP server "a b" skipped: tool name "a_b-echo" collides with server "a.b"'))).toBe(true);
  });

  it("MC-9 a server that exits at start has no tools and does not affect another that serves calls", async () => {
    const { tools } = await withServers({ broken: stdio({ env: { FIXTURE_EXIT: "1" } }), good: stdio() });
    const set = await tools();
    expect(Object.keys(set).some((name) => name.startsWith("broken-"))).toBe(false);
    expect(await call(set, "good-echo", { text: "still here" })).toEqual([{ type: "text", text: "echo: still here" }]);
    expect(kernel!.logs.some((line) => line.includes('MCP server "broken" connect failed'))).toBe(true);
    // MC-8: retried with backoff 1 s doubling.
    expect(kernel!.logs.some((line) => line.includes('MCP server "broken" reconnect attempt 1 in 1000 ms'))).toBe(true);
    await until(() => kernel!.logs.some((line) => line.includes('MCP server "broken" reconnect attempt 2 in 2000 ms')), 5000);
    expect(await call(set, "good-echo", { text: "again" })).toEqual([{ type: "text", text: "echo: again" }]);
  });

  it("MC-1 MC-6 one pool per profile root: a profile's mcp.json replaces the baseline for that profile only", async () => {
    kernel = await startKernel(bare, {
      prepare: async (dir) => {
        await writeJson(join(dir, ".mcp.json"), { mcpServers: { base: stdio() } });
        await writeJson(join(dir, "profiles", "own", "mcp.json"), { mcpServers: { own: stdio() } });
      },
    });
    const baseline = await invokeMcp(kernel, { root: join(kernel.dir, "profiles", "plain") });
    const replaced = await invokeMcp(kernel, { root: join(kernel.dir, "profiles", "own"), channelId: "c2" });
    const again = await invokeMcp(kernel, { root: join(kernel.dir, "profiles", "own"), channelId: "c3" });
    expect(Object.keys(await baseline.tools())).toContain("base-echo");
    expect(Object.keys(await replaced.tools()).filter((name) => name.startsWith("base-"))).toEqual([]);
    expect(Object.keys(await replaced.tools())).toContain("own-echo");
    expect(await again.tools()).toBe(await replaced.tools());
    expect(kernel.logs.filter((line) => line.includes('MCP server "own" connected'))).toHaveLength(1);
  });

  it("MC-8 after the process is killed the last-known tools fail fast, then the server reconnects and serves again", async () => {
    const { tools } = await withServers({ fx: stdio() });
    const set = await tools();
    const { pid } = await whoami(set, "fx-whoami");
    process.kill(pid, "SIGKILL");
    await until(() => kernel!.logs.some((line) => line.includes('MCP server "fx" connection closed; reconnecting')));
    const during = await tools();
    expect(Object.keys(during)).toContain("fx-echo");
    expect(await failure(during, "fx-echo", { text: "x" })).toEqual({ name: "ToolError", message: 'MCP server "fx" is not connected (reconnecting, attempt 1)' });
    await until(() => kernel!.logs.some((line) => line.includes('MCP server "fx" connected after 1 attempt(s)')), 5000);
    const after = await whoami(await tools(), "fx-whoami");
    expect(after.pid).not.toBe(pid);
    expect(alive(pid)).toBe(false);
  });

  it("MC-15 instructions of connected servers under ### MCP server <name>; off per server; empty when none", async () => {
    const { instance } = await withServers({
      one: stdio({ env: { FIXTURE_INSTRUCTIONS: "Use one carefully.", FIXTURE_RESOURCES: "0" } }),
      two: stdio({ env: { FIXTURE_INSTRUCTIONS: "Two is quiet.", FIXTURE_RESOURCES: "0" }, instructions: false }),
      three: stdio({ env: { FIXTURE_INSTRUCTIONS: "Three speaks.", FIXTURE_RESOURCES: "0" } }),
    });
    expect(await instance.extendInstructions!()).toBe("### MCP server one\nUse one carefully.\n\n### MCP server three\nThree speaks.");
    await kernel!.dispose();
    const { instance: silent } = await withServers({ four: stdio({ env: { FIXTURE_RESOURCES: "0" } }) });
    expect(await silent.extendInstructions!()).toBe("");
  });
});
