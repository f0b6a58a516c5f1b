import { createRequire } from "node:module";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadMcpConfig, McpFile, ServerConfig } from "../src/index.js";

const RESOURCES = new URL("../resources/", import.meta.url);

let dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  dirs = [];
});

/** A data directory with `.mcp.json` and a profile root with `mcp.json` (each only when given). */
async function layout(baseline?: unknown, profile?: unknown) {
  const dataPath = await mkdtemp(join(tmpdir(), "ishiki-mcp-config-"));
  dirs.push(dataPath);
  const root = join(dataPath, "profiles", "p");
  await mkdir(root, { recursive: true });
  const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
  if (baseline !== undefined) await writeFile(join(dataPath, ".mcp.json"), text(baseline));
  if (profile !== undefined) await writeFile(join(root, "mcp.json"), text(profile));
  const lines: string[] = [];
  const load = () => loadMcpConfig(dataPath, root, { info: (line) => lines.push(`info ${line}`), error: (line) => lines.push(`error ${line}`) });
  return { dataPath, root, lines, load };
}

describe("configuration", () => {
  it("MC-1 <dataPath>/.mcp.json is the baseline; <profileRoot>/mcp.json replaces it entirely", async () => {
    const only = await layout({ mcpServers: { base: { command: "a" }, shared: { command: "b" } } });
    expect((await only.load()).map((server) => server.name)).toEqual(["base", "shared"]);
    const replaced = await layout({ mcpServers: { base: { command: "a" } } }, { mcpServers: { own: { type: "http", url: "http://127.0.0.1:1/mcp" } } });
    const servers = await replaced.load();
    expect(servers.map((server) => server.name)).toEqual(["own"]);
    expect(servers[0].baseDir).toBe(replaced.root);
    expect(replaced.lines).toEqual([`info MCP config ${join(replaced.root, "mcp.json")}: 1 server(s) declared, 1 enabled`]);
  });

  it("MC-2 MC-3 disabledServers never connect; enabledServers force on over enabled: false and the disable list; defaults filled", async () => {
    const { load } = await layout({
      mcpServers: { a: { command: "a" }, b: { command: "b", enabled: false }, c: { command: "c" }, d: { command: "d", enabled: false } },
      disabledServers: ["c", "d"],
      enabledServers: ["d"],
    });
    const servers = await load();
    expect(servers.map((server) => server.name)).toEqual(["a", "d"]);
    expect(servers[0].config).toEqual({ command: "a", args: [], env: {}, enabled: true, connectTimeoutMs: 30_000, instructions: true });
  });

  it("MC-4 MC-5 a bare { url } is rejected and only that server is skipped, with one line naming file and server", async () => {
    const { load, lines, dataPath } = await layout({ mcpServers: { bare: { url: "http://127.0.0.1:1/mcp" }, fine: { command: "x" }, typo: { type: "http", url: 5 } } });
    expect((await load()).map((server) => server.name)).toEqual(["fine"]);
    const file = join(dataPath, ".mcp.json");
    expect(lines.filter((line) => line.startsWith("error"))).toEqual([
      `error ${file}: server "bare" skipped: command missing required value`,
      `error ${file}: server "typo" skipped: url expected string`,
    ]);
    expect(lines.every((line) => !line.includes("\n"))).toBe(true);
  });

  it("MC-5 a wrong top level or invalid JSON drops the file: no servers, one error line, nothing thrown", async () => {
    const wrong = await layout({ mcpServers: [] });
    expect(await wrong.load()).toEqual([]);
    expect(wrong.lines).toEqual([`error ${join(wrong.dataPath, ".mcp.json")}: mcpServers expected object; no MCP servers for this profile`]);
    const broken = await layout(undefined, "{ not json");
    expect(await broken.load()).toEqual([]);
    expect(broken.lines).toHaveLength(1);
    expect(broken.lines[0]).toMatch(/^error .*mcp\.json: invalid JSON: .*; no MCP servers for this profile$/);
    const none = await layout();
    expect(await none.load()).toEqual([]);
    expect(none.lines).toEqual([`info no MCP config: neither ${join(none.root, "mcp.json")} nor ${join(none.dataPath, ".mcp.json")} exists`]);
  });

  it("MC-17 a rejected env or headers value is never repeated in the error", async () => {
    const { load, lines } = await layout({ mcpServers: { a: { command: "x", env: { TOKEN: 12345678 } }, b: { type: "sse", url: "http://h", headers: { Authorization: ["Bearer", "xyz-secret"] } } } });
    expect(await load()).toEqual([]);
    expect(lines.join("\n")).not.toContain("12345678");
    expect(lines.join("\n")).not.toContain("xyz-secret");
    expect(lines.join("\n")).toContain('server "a" skipped: env.TOKEN expected string');
  });
});

describe("the shipped JSON Schema", () => {
  const valid: unknown[] = [
    {},
    { mcpServers: {} },
    { $schema: "./mcp.schema.json", mcpServers: { a: { command: "node", args: ["s.mjs"], env: { K: "v" }, cwd: "srv", timeout: 0, connectTimeoutMs: 5, instructions: false, enabled: false } } },
    { mcpServers: { a: { type: "stdio", command: "x" }, b: { type: "http", url: "http://h/mcp", headers: { A: "b" } }, c: { type: "sse", url: "http://h/sse" } } },
    { mcpServers: { a: { command: "x" } }, disabledServers: ["a"], enabledServers: [] },
  ];
  const invalid: unknown[] = [
    [],
    { mcpServers: [] },
    { mcpServers: { a: { url: "http://h/mcp" } } },
    { mcpServers: { a: { type: "http", command: "x" } } },
    { mcpServers: { a: { type: "ws", url: "ws://h" } } },
    { mcpServers: { a: { command: 5 } } },
    { mcpServers: { a: { command: "x", args: "s.mjs" } } },
    { mcpServers: { a: { command: "x", env: { K: 1 } } } },
    { mcpServers: { a: { command: "x", timeout: -1 } } },
    { mcpServers: { a: { command: "x", timeout: 1.5 } } },
    { mcpServers: { a: { command: "x", connectTimeoutMs: 0 } } },
    { mcpServers: { a: { type: "sse", url: "http://h", headers: { A: 1 } } } },
    { mcpServers: { a: 5 } },
    { disabledServers: "a" },
    { enabledServers: [1] },
  ];

  /** The runtime verdict: the top level and every server entry pass their Koishi Schema. */
  function runtimeAccepts(sample: unknown): boolean {
    try {
      const file = McpFile(sample as McpFile);
      for (const entry of Object.values(file.mcpServers)) ServerConfig(entry as ServerConfig);
      return true;
    } catch {
      return false;
    }
  }

  it("MC-1 the JSON Schema (2020-12, checked with ajv) and the runtime Schema agree on valid and invalid samples; the example is valid", async () => {
    // ajv is the MCP SDK's dependency, not this package's: load it from there, in the test only.
    const sdkRequire = createRequire(createRequire(import.meta.url).resolve("@modelcontextprotocol/sdk/server/mcp.js"));
    const Ajv2020 = sdkRequire("ajv/dist/2020").default as new (options: object) => { compile(schema: object): ((value: unknown) => boolean) & { errors?: unknown } };
    const schema = JSON.parse(await readFile(new URL("mcp.schema.json", RESOURCES), "utf8")) as object;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    for (const sample of valid) {
      expect([JSON.stringify(sample), validate(sample), runtimeAccepts(sample)]).toEqual([JSON.stringify(sample), true, true]);
    }
    for (const sample of invalid) {
      expect([JSON.stringify(sample), validate(sample), runtimeAccepts(sample)]).toEqual([JSON.stringify(sample), false, false]);
    }
    const example = JSON.parse(await readFile(new URL("mcp.example.json", RESOURCES), "utf8")) as unknown;
    expect(validate(example)).toBe(true);
    expect(runtimeAccepts(example)).toBe(true);
  });
});
