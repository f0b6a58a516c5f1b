// KP-42: the examples/bot configuration boots (`koishi start` on a free port, in a temp copy) and walks seed 000's
// journey (00 §6) through the sandbox bot, spoken over the console's WebSocket as the sandbox page does: the notes
// file at /home/workspace/notes.txt, the seed's program, a reply with the count and the URL (issue 20).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, sse, startServer } from "../../gateway/test/gateway-servers.js";
import { journeyModel, type ToolResultSeen } from "./journey-model.js";

const bot = fileURLToPath(new URL("../../../examples/bot", import.meta.url));
const { SEED_PROGRAM } = createRequire(import.meta.url)(join(bot, "demo-model.cjs")) as { SEED_PROGRAM: string };
const NOTES = await readFile(join(bot, "notes.txt"), "utf8");
const TODO_LINES = NOTES.split("\n").filter((line) => line.startsWith("TODO:"));
const TASKS_URL = "workspace:///home/workspace/tasks.txt";

/** The workspace of the one runtime the sandbox user's private chat created. */
async function workspaceOf(dir: string): Promise<string> {
  const runtimes = join(dir, "data/ishiki/profiles/demo/runtimes");
  const [account] = await readdir(runtimes);
  const [channel] = await readdir(join(runtimes, account));
  return join(runtimes, account, channel, "workspace");
}

interface Demo {
  dir: string;
  output(): string;
  /** Sends one private message from `alice` through the sandbox and resolves with the bot's first reply. */
  talk(text: string): Promise<{ content: string; channel: string }>;
  /** The console's `data` pushes seen so far on the demo's connection, by key. */
  data: Map<string, unknown>;
}

const running: Array<{ dir: string; child: ChildProcess }> = [];
const sockets: WebSocket[] = [];

async function bootDemo(extraEnv: Record<string, string>): Promise<Demo> {
  for (const name of ["core", "gateway", "koishi-plugin-ishiki", "workspace"]) {
    if (!existsSync(join(bot, `../../packages/${name}/lib/index.cjs`))) throw new Error(`packages/${name}: lib/index.cjs is missing; run pnpm build first`);
  }
  const dir = await mkdtemp(join(tmpdir(), "ishiki-demo-"));
  await symlink(join(bot, "node_modules"), join(dir, "node_modules"), "dir");
  const { prepareApp } = (await import(join(bot, "prepare.mjs"))) as { prepareApp(options: { dir: string; port: number }): Promise<void> };
  const port = await freePort();
  await prepareApp({ dir, port });
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", FORCE_COLOR: "0" };
  delete env.ISHIKI_BASE_URL;
  delete env.ISHIKI_MODEL;
  delete env.ISHIKI_API_KEY;
  const child = spawn(process.execPath, [join(dir, "node_modules/koishi/bin.js"), "start"], { cwd: dir, detached: true, env: { ...env, ...extraEnv } });
  running.push({ dir, child });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const start = Date.now();
  while (!output.includes("[demo] profile active")) {
    if (Date.now() - start > 30_000) throw new Error(`demo did not start; output:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const data = new Map<string, unknown>();
  const replies: Array<{ content: string; user: string; channel: string }> = [];
  let connection: WebSocket | undefined;
  return {
    dir,
    data,
    output: () => output,
    async talk(text) {
      // One connection for every talk of a demo: the sandbox ties its bot to the connection that first spoke, and a
      // reply sent before the server has noticed that connection close goes to the closed one and is lost.
      const socket = (connection ??= await connect(port, data, replies));
      replies.length = 0;
      const send = (id: string, type: string, args: unknown[]) => socket.send(JSON.stringify({ id, type, args }));
      send("1", "sandbox/set-user", ["sandbox:test", "alice", {}]);
      send("2", "sandbox/send-message", ["sandbox:test", "alice", "@alice", text, null]);
      const asked = Date.now();
      while (replies.length === 0) {
        if (Date.now() - asked > 60_000) throw new Error(`no reply from the demo; output:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return replies[0];
    },
  };
}

/** A console connection that records the bot's sandbox replies and the console's `data` pushes. */
async function connect(port: number, data: Map<string, unknown>, replies: Array<{ content: string; user: string; channel: string }>): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/status`);
  sockets.push(socket);
  socket.on("message", (raw) => {
    const message = JSON.parse(raw.toString());
    if (message.type === "data") data.set(message.body.key, message.body.value);
    if (message.type === "sandbox/message" && message.body.user !== "alice") replies.push(message.body);
    if (message.type === "sandbox/request") socket.send(JSON.stringify({ type: "sandbox/response", args: [message.body.nonce, null] }));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  // The app is killed at the end with the socket open; its error then is expected.
  socket.on("error", () => {});
  return socket;
}

describe("the demo app (KP-40 .. KP-42)", () => {
  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    for (const { dir, child } of running) {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {}
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("KP-41 KP-42 OV-17..OV-24 the scripted demo model walks seed 000 in the sandbox, in English and in Chinese; the console has its config and market pages", async () => {
    const demo = await bootDemo({});
    const reply = await demo.talk("hello, please plan my notes");
    expect(reply.channel).toBe("@alice");
    expect(reply.content).toBe(`[demo model] I found ${TODO_LINES.length} TODO lines in /home/workspace/notes.txt and wrote them to ${TASKS_URL}.`);
    const workspace = await workspaceOf(demo.dir);
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe(NOTES);
    expect(await readFile(join(workspace, "tasks.txt"), "utf8")).toBe(TODO_LINES.join("\n"));
    // The console loads the config and market pages: their client entries are served for the plugins in koishi.yml.
    const plugins = Object.keys((demo.data.get("config") as { plugins: Record<string, unknown> }).plugins);
    const idents = ["config:", "market:"].map((name) => plugins.find((key) => key.startsWith(name))!.split(":")[1]);
    const paths = Object.values(demo.data.get("entry") as Record<string, { paths: string[] }>).flatMap((entry) => entry.paths);
    expect(paths).toEqual(expect.arrayContaining(idents));

    const chinese = await demo.talk("帮我整理一下笔记");
    expect(chinese.content).toBe(`[demo model] 我在 /home/workspace/notes.txt 里找到 ${TODO_LINES.length} 条待办，已写入 ${TASKS_URL}。`);
    // OV-24: the fact stream holds no notes text (the model saw only { count, url }).
    const events = await readFile(join(workspace, "../events.jsonl"), "utf8");
    for (const line of NOTES.split("\n").filter(Boolean)) expect(events).not.toContain(line);
  }, 90_000);

  it("issue 20: a real OpenAI-compatible endpoint playing the seed's program finds the notes, gets only { count, url }, and no TODO line reaches a request", async () => {
    const toolResults: ToolResultSeen[] = [];
    const relay = await startServer(
      journeyModel(
        SEED_PROGRAM,
        (content) => `${(JSON.parse(content) as { count: number }).count} TODO lines: ${(JSON.parse(content) as { url: string }).url}`,
        // What each turn did: the tool results after the latest message from the user (not the kernel's catalogs).
        (results) => toolResults.push(...results.filter((result) => !toolResults.includes(result))),
      ),
    );
    try {
      const demo = await bootDemo({ ISHIKI_BASE_URL: `${relay.url}/v1`, ISHIKI_MODEL: "seed-player" });
      const reply = await demo.talk("please plan my notes");
      expect(reply.content).toBe(`3 TODO lines: ${TASKS_URL}`);
      const codemode = toolResults.find((result) => result.name === "codemode")!;
      expect(JSON.parse(codemode.content)).toEqual({ count: TODO_LINES.length, url: TASKS_URL });
      expect(await readFile(join(await workspaceOf(demo.dir), "tasks.txt"), "utf8")).toBe(TODO_LINES.join("\n"));
      expect(relay.received.length).toBeGreaterThanOrEqual(3);
      for (const { body } of relay.received) {
        const text = JSON.stringify(body);
        for (const line of NOTES.split("\n").filter(Boolean)) expect(text).not.toContain(line);
      }
    } finally {
      await relay.close();
    }
  }, 90_000);

  it("KP-41 ISHIKI_BASE_URL and ISHIKI_MODEL select that OpenAI-compatible endpoint; one alone logs what is missing", async () => {
    const relay = await startServer((request, response) => {
      const chunk = (delta: unknown, finish: string | null = null) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: request.body.model, choices: [{ index: 0, delta, finish_reason: finish }] });
      const call = { index: 0, id: "call_1", type: "function", function: { name: "send_message", arguments: JSON.stringify({ messages: [`relay ${request.body.model} answers`] }) } };
      sse(response, [{ data: chunk({ role: "assistant", content: "" }) }, { data: chunk({ tool_calls: [call] }) }, { data: chunk({}, "tool_calls") }, { data: "[DONE]" }]);
    });
    try {
      const demo = await bootDemo({ ISHIKI_BASE_URL: `${relay.url}/v1`, ISHIKI_MODEL: "relay-model", ISHIKI_API_KEY: "sk-test" });
      expect((await demo.talk("hello")).content).toBe("relay relay-model answers");
      expect(relay.received[0].headers.authorization).toBe("Bearer sk-test");
      const half = await bootDemo({ ISHIKI_MODEL: "relay-model" });
      expect(half.output()).toContain("ISHIKI_BASE_URL is not set; falling back to the scripted [demo model]");
    } finally {
      await relay.close();
    }
  }, 90_000);
});
