import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const packages = {
  "koishi-plugin-ishiki": join(repo, "packages/koishi-plugin-ishiki"),
  "koishi-plugin-ishiki-workspace": join(repo, "packages/workspace"),
  "koishi-plugin-ishiki-mcp-client": join(repo, "packages/mcp-client"),
  "koishi-plugin-ishiki-onebot-actions": join(repo, "packages/onebot-actions"),
  "koishi-plugin-ishiki-memory": join(repo, "packages/memory"),
};
const requireFromCore = createRequire(join(packages["koishi-plugin-ishiki"], "package.json"));

/**
 * A stock Koishi app: its own koishi.yml and node_modules, started with `koishi start`, which forks a CommonJS
 * worker that `require()`s each plugin through @koishijs/loader's CommonJS build (the one our pnpm patch leaves alone).
 */
async function createApp(plugins: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-app-"));
  const modules = join(dir, "node_modules");
  await mkdir(join(modules, "@koishijs"), { recursive: true });
  const link = async (name: string, target: string) => symlink(await realpath(target), join(modules, name), "dir");
  for (const [name, path] of Object.entries(packages)) await link(name, path);
  for (const name of ["koishi", "@koishijs/plugin-http", "@koishijs/plugin-proxy-agent"]) {
    const path = dirname(requireFromCore.resolve(`${name}/package.json`, { paths: [join(repo, "node_modules/.pnpm/node_modules")] }));
    await link(name, path);
  }
  // Listing http and proxy-agent as dependencies keeps the loader from adding them to koishi.yml.
  await writeFile(join(dir, "package.json"), JSON.stringify({
    name: "ishiki-loader-test",
    private: true,
    dependencies: { koishi: "*", "@koishijs/plugin-http": "*", "@koishijs/plugin-proxy-agent": "*" },
  }));
  const yaml = Object.entries(plugins).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`).join("\n");
  await writeFile(join(dir, "koishi.yml"), `logger:\n  levels:\n    base: 2\nplugins:\n${yaml}\n`);
  return dir;
}

/** Starts `koishi start` in `dir` and resolves with its output once `until` matches, or rejects on timeout. */
function start(dir: string, until: RegExp, timeoutMs = 15_000): Promise<string> {
  const bin = join(dir, "node_modules/koishi/bin.js");
  const child = spawn(process.execPath, [bin, "start"], { cwd: dir, detached: true, env: { ...process.env, NODE_ENV: "production", FORCE_COLOR: "0" } });
  let output = "";
  return new Promise<string>((resolve, reject) => {
    const stop = (error?: Error) => {
      clearTimeout(timer);
      // `koishi start` forks a worker: end the whole process group or the worker outlives the test.
      try { process.kill(-child.pid!, "SIGKILL"); } catch {}
      if (error) reject(error);
      else resolve(output);
    };
    const timer = setTimeout(() => stop(new Error(`koishi start did not reach ${until} in ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (until.test(output)) stop();
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => stop(new Error(`koishi start exited with ${code}; output:\n${output}`)));
  });
}

describe("published plugins load in a stock Koishi app (OV-10, QA-23)", () => {
  const dirs: string[] = [];
  beforeAll(() => {
    for (const [name, path] of Object.entries(packages)) {
      if (!existsSync(join(path, "lib/index.cjs"))) throw new Error(`${name}: lib/index.cjs is missing; run pnpm build first`);
    }
  });
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("QA-23 koishi start loads the built koishi-plugin-ishiki with an empty configuration and it reaches ready", async () => {
    const dir = await createApp({ ishiki: {} });
    dirs.push(dir);
    const output = await start(dir, /\[I\] ishiki ready, data at (\S+)/);
    expect(output).toMatch(new RegExp(`ishiki ready, data at ${join(await realpath(dir), "data/ishiki").replace(/[/.]/g, "\\$&")}`));
    expect(output).not.toMatch(/\[E\]/);
  });

  it("QA-23 the extension packages load after the kernel through the same require() path", async () => {
    // A profile enabling the four extensions activates only once their built services exist; no model is called,
    // so the provider's address is never reached.
    const ishiki = {
      models: { providers: { local: { api: "openai-completions", baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "m" }] } } },
      profiles: { demo: { model: "local:m", channels: { "sandbox:*:*": ["*"] }, extends: { workspace: {}, "mcp-client": {}, "onebot-actions": {}, memory: {} } } },
    };
    // Memory needs Koishi's database: SQLite from the memory package's one-line wrapper of the minato driver.
    const dir = await createApp({ "ishiki-memory/sqlite": { path: "data/koishi.db" }, ishiki, "ishiki-workspace": {}, "ishiki-mcp-client": {}, "ishiki-onebot-actions": {}, "ishiki-memory": {} });
    dirs.push(dir);
    // Both lines, in either order: the profile activates, and SQLite creates the memory tables once it is ready.
    const output = await start(dir, /^(?=[\s\S]*\[demo\] profile active)(?=[\s\S]*auto creating table ishiki_memory_usage)/);
    expect(output).toMatch(/\[demo\] profile active/);
    expect(output).not.toMatch(/\[E\]/);
  });
});
