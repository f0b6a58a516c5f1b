// Issue 20, done when: `npm run pack`, then plain npm installs the tarballs into a fresh Koishi app outside the
// workspace (as docs/getting-started.md says), `koishi start` loads the real plugins from koishi.yml, and a chat
// message gets an answer from a model: an OpenAI-compatible HTTP server on 127.0.0.1 behind the real provider.
// The chat side is @koishijs/plugin-mock, driven by a small plugin of the app that prints what the bot sends. The
// app also builds the NoteExtension sample as docs/extensions.md describes (TypeScript to CommonJS with tsc,
// `npm install` of its folder, listed under `plugins:` and enabled under `extends`).
import { spawn } from "node:child_process";
import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sse, startServer, type TestServer } from "../../gateway/test/gateway-servers.js";
import { cleanEnv, freshPackage, nativeBuilds, npmInstall, packTarballs, repo, run, VERSIONS, type Tarballs } from "./pack-support.js";

const chunk = (delta: unknown, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const callSendMessage = (text: string) => [
  { data: chunk({ role: "assistant", content: "", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "send_message", arguments: JSON.stringify({ messages: [text] }) } }] }) },
  { data: chunk({}, "tool_calls") },
  { data: "[DONE]" },
];

// A plugin of the app: once the mock bot is up, a user says hello in a private chat; whatever the bot sends is
// printed. plugin-mock's own sendMessage needs a mock client session, so the bot's send is replaced here.
const DRIVER = `
const { h } = require("koishi");
exports.name = "ishiki-test-driver";
exports.apply = (ctx) => {
  const logger = ctx.logger("driver");
  ctx.on("ready", () => {
    const bot = ctx.bots.find((candidate) => candidate.platform === "mock");
    bot.sendMessage = async (channelId, content) => {
      logger.info("reply to %s: %s", channelId, h.normalize(content).join(""));
      return ["reply-1"];
    };
    setTimeout(() => bot.client("u1").receive("hello"), 200);
  });
};
`;

function koishiYml(baseUrl: string): string {
  const ishiki = {
    models: { providers: { relay: { api: "openai-completions", baseUrl, models: [{ id: "m" }] } } },
    profiles: { demo: { model: "relay:m", channels: { "mock:bot": ["*"] }, extends: { workspace: {}, note: { config: { prefix: "memo" } } } } },
  };
  return [
    "logger:",
    "  levels:",
    "    base: 2",
    "plugins:",
    `  mock: ${JSON.stringify({ selfId: "bot" })}`,
    `  ishiki: ${JSON.stringify(ishiki)}`,
    "  ishiki-workspace: {}",
    "  ishiki-note: {}",
    "  ishiki-test-driver: {}",
    "",
  ].join("\n");
}

// The extension package of docs/extensions.md ("Packaging and loading your extension").
const NOTE_PACKAGE = {
  name: "koishi-plugin-ishiki-note",
  version: "0.1.0",
  main: "lib/index.js",
  types: "lib/index.d.ts",
  files: ["lib"],
  koishi: { description: { en: "Durable notes for Ishiki", zh: "为 Ishiki 记录持久笔记" }, service: { required: ["ishiki"], implements: ["ishiki.ext.note"] } },
  peerDependencies: { koishi: "^4.18.11", "koishi-plugin-ishiki": "^0.1.0" },
};
const NOTE_TSCONFIG = {
  compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, esModuleInterop: true, skipLibCheck: true, declaration: true, rootDir: "src", outDir: "lib", types: ["node"] },
  include: ["src"],
};

/** Builds the NoteExtension sample in `<app>/extensions/note` with the app's tsc and installs the folder. */
async function installNoteExtension(app: string): Promise<void> {
  const dir = join(app, "extensions/note");
  await mkdir(join(dir, "src"), { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify(NOTE_PACKAGE, null, 2));
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(NOTE_TSCONFIG, null, 2));
  await copyFile(join(repo, "examples/extensions/src/note.ts"), join(dir, "src/index.ts"));
  const built = await run(process.execPath, [join(app, "node_modules/typescript/bin/tsc"), "-p", dir], dir);
  expect(built.output).toBe("");
  const linked = await run("npm", ["install", "--no-audit", "--no-fund", "./extensions/note"], app);
  expect(linked.code, linked.output).toBe(0);
}

/** `koishi start` in `dir` until `until` matches its output; the process group is killed either way. */
function start(dir: string, until: RegExp, timeoutMs: number): Promise<string> {
  const child = spawn(process.execPath, [join(dir, "node_modules/koishi/bin.js"), "start"], { cwd: dir, detached: true, env: { ...cleanEnv(), NODE_ENV: "production" } });
  let output = "";
  return new Promise<string>((resolve, reject) => {
    const stop = (error?: Error) => {
      clearTimeout(timer);
      // `koishi start` forks a worker: end the whole process group or the worker outlives the test.
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
      if (error) reject(error);
      else resolve(output);
    };
    const timer = setTimeout(() => stop(new Error(`koishi start did not reach ${until} in ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
    const read = (data: Buffer) => {
      output += data.toString("utf8");
      if (until.test(output)) stop();
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => stop(new Error(`koishi start exited with ${code}; output:\n${output}`)));
  });
}

describe("a fresh Koishi app installed from the packed tarballs (issue 20)", () => {
  let tarballs: Tarballs | undefined;
  let server: TestServer | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    tarballs = await packTarballs();
    server = await startServer((_request, response) => sse(response, callSendMessage("pong from the model")));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await tarballs?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("OV-1 QA-23 XA-19 npm i of every tarball compiles nothing; koishi start loads the plugins and a TypeScript extension, and a private hello gets the model's answer", async () => {
    const dependencies: Record<string, string> = {
      koishi: VERSIONS.koishi,
      "@koishijs/plugin-mock": VERSIONS["@koishijs/plugin-mock"],
      // Listed so the loader does not add them to koishi.yml and package.json itself.
      "@koishijs/plugin-http": VERSIONS["@koishijs/plugin-http"],
      "@koishijs/plugin-proxy-agent": VERSIONS["@koishijs/plugin-proxy-agent"],
      typescript: VERSIONS.typescript,
      "@types/node": VERSIONS["@types/node"],
    };
    for (const [name, path] of tarballs!.byName) dependencies[name] = `file:${path}`;
    dir = await freshPackage("ishiki-bot", dependencies);
    const install = await npmInstall(dir);
    expect(install.code, install.output).toBe(0);
    expect(await nativeBuilds(dir, install)).toEqual([]);

    await installNoteExtension(dir);
    // Written after the last npm install, which would prune a package it does not know.
    const driver = join(dir, "node_modules/koishi-plugin-ishiki-test-driver");
    await mkdir(driver);
    await writeFile(join(driver, "package.json"), JSON.stringify({ name: "koishi-plugin-ishiki-test-driver", version: "0.0.0", main: "index.js" }));
    await writeFile(join(driver, "index.js"), DRIVER);
    await writeFile(join(dir, "koishi.yml"), koishiYml(server!.url));

    const output = await start(dir, /reply to private:u1: .+|\[E\]/, 60_000);
    expect(output).toMatch(/\[demo\] profile active/);
    expect(output).toContain("reply to private:u1: pong from the model");
    expect(output).not.toMatch(/\[E\]/);
    // The model was asked once, with the user's message and the real tool surface.
    expect(server!.received).toHaveLength(1);
    const body = server!.received[0].body as { messages: unknown[]; tools: Array<{ function: { name: string } }> };
    expect(JSON.stringify(body.messages)).toContain("hello");
    expect(body.tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(["send_message", "bash", "read_file", "note_write"]));
    expect(JSON.stringify(body.messages)).toContain("Use note_write to record durable notes.");
  }, 300_000);
});
