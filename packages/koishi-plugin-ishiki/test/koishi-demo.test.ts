// KP-42: the examples/bot configuration boots (`koishi start` on a free port, in a temp copy) and completes one demo
// exchange through the sandbox bot, spoken over the console's WebSocket as the sandbox page does.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { afterAll, describe, expect, it } from "vitest";
import { sse, startServer } from "../../gateway/test/gateway-servers.js";

const bot = fileURLToPath(new URL("../../../examples/bot", import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Demo {
  dir: string;
  output(): string;
  /** Sends one private message from `alice` through the sandbox and resolves with the bot's first reply. */
  talk(text: string): Promise<{ content: string; channel: string }>;
}

const running: Array<{ dir: string; child: ChildProcess }> = [];

async function bootDemo(extraEnv: Record<string, string>): Promise<Demo> {
  for (const name of ["core", "workspace"]) {
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
  return {
    dir,
    output: () => output,
    async talk(text) {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/status`);
      const replies: Array<{ content: string; user: string; channel: string }> = [];
      socket.on("message", (raw) => {
        const message = JSON.parse(raw.toString());
        if (message.type === "sandbox/message" && message.body.user !== "alice") replies.push(message.body);
        if (message.type === "sandbox/request") socket.send(JSON.stringify({ type: "sandbox/response", args: [message.body.nonce, null] }));
      });
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", reject);
      });
      const send = (id: string, type: string, args: unknown[]) => socket.send(JSON.stringify({ id, type, args }));
      send("1", "sandbox/set-user", ["sandbox:test", "alice", {}]);
      send("2", "sandbox/send-message", ["sandbox:test", "alice", "@alice", text, null]);
      const asked = Date.now();
      while (replies.length === 0) {
        if (Date.now() - asked > 60_000) throw new Error(`no reply from the demo; output:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      socket.close();
      return replies[0];
    },
  };
}

describe("the demo app (KP-40 .. KP-42)", () => {
  afterAll(async () => {
    for (const { dir, child } of running) {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {}
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("KP-41 KP-42 the scripted demo model walks search, codemode over notes.txt and send_message in the sandbox", async () => {
    const demo = await bootDemo({});
    const reply = await demo.talk("hello, please plan my notes");
    expect(reply.channel).toBe("@alice");
    expect(reply.content).toMatch(/^\[demo model\] I read notes\.txt and wrote tasks\.txt/);
    expect(reply.content).toContain("buy oat milk");
    const tasks = await readFile(join(demo.dir, "data/ishiki/profiles/demo/notes/tasks.txt"), "utf8");
    expect(tasks).toContain("[ ] renew the domain before Friday");
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
