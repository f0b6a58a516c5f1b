// The issue 8 end-to-end test: a Koishi app started by `koishi start` from a koishi.yml with the OneBot adapter
// (reverse WebSocket) and the built koishi-plugin-ishiki; a OneBot v11 peer and an OpenAI-compatible model server
// written here, both on 127.0.0.1, drive one group and one private exchange.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startServer, sse, type TestServer } from "../../gateway/test/gateway-servers.js";

const core = fileURLToPath(new URL("..", import.meta.url));
const requireFromCore = createRequire(join(core, "package.json"));
const SELF = "123";
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0d8a3d10000000049454e44ae426082", "hex");

function chunk(delta: unknown, finish: string | null = null) {
  return { id: "c", object: "chat.completion.chunk", created: 1, model: "scripted", choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** One streamed `send_message` call. */
function sendMessageCall(messages: string[]) {
  return [
    { data: chunk({ role: "assistant", content: "" }) },
    { data: chunk({ tool_calls: [{ index: 0, id: `call_${Math.random().toString(36).slice(2)}`, type: "function", function: { name: "send_message", arguments: JSON.stringify({ messages }) } }] }) },
    { data: chunk({}, "tool_calls") },
    { data: "[DONE]" },
  ];
}

interface Peer {
  socket: WebSocket;
  calls: Array<{ action: string; params: any }>;
  push(event: object): void;
}

async function connectPeer(port: number): Promise<Peer> {
  const calls: Peer["calls"] = [];
  let messageId = 5000;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/onebot`, { headers: { "X-Self-ID": SELF, "X-Client-Role": "Universal" } });
      // Listen before `open` resolves: the adapter's first request can arrive in the same tick.
      socket.on("message", (raw) => {
        const { action, params, echo } = JSON.parse(raw.toString());
        calls.push({ action, params });
        const data =
          action === "get_login_info" ? { user_id: Number(SELF), nickname: "ishiki-bot" }
          : action === "get_version_info" ? { app_name: "peer", app_version: "1", protocol_version: "v11" }
          : action.endsWith("_list") ? []
          : action === "send_group_msg" || action === "send_private_msg" || action === "send_msg" ? { message_id: (messageId += 1) }
          : {};
        socket.send(JSON.stringify({ status: "ok", retcode: 0, data, echo }));
      });
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", reject);
        socket.once("unexpected-response", () => reject(new Error("unexpected response")));
      });
      return { socket, calls, push: (event) => socket.send(JSON.stringify(event)) };
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = "condition"): Promise<void> {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function message(kind: "group" | "private", userId: string, id: number, segments: object[], groupId = "456") {
  return {
    post_type: "message",
    message_type: kind,
    sub_type: kind === "group" ? "normal" : "friend",
    time: Math.floor(Date.now() / 1000),
    self_id: Number(SELF),
    user_id: Number(userId),
    message_id: id,
    message: segments,
    raw_message: "",
    font: 0,
    sender: { user_id: Number(userId), nickname: `user${userId}`, card: "" },
    ...(kind === "group" ? { group_id: Number(groupId) } : {}),
  };
}

describe("OneBot end to end (issue 8)", () => {
  let dir = "";
  let child: ChildProcess | undefined;
  let output = "";
  let model: TestServer;
  let images: TestServer;
  let peer: Peer | undefined;

  beforeAll(async () => {
    if (!existsSync(join(core, "lib/index.cjs"))) throw new Error("koishi-plugin-ishiki: lib/index.cjs is missing; run pnpm build first");
    images = await startServer((_request, response) => {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(PNG);
    });
    model = await startServer((request, response) => {
      const prompt = JSON.stringify(request.body?.messages ?? []);
      const asset = /asset:\/\/[^"\\\s]+/.exec(prompt)?.[0];
      sse(response, sendMessageCall(asset ? ["here is your picture", `<img src="${asset}"/>`] : ["pong from alice"]));
    });
    dir = await mkdtemp(join(tmpdir(), "ishiki-onebot-"));
    const modules = join(dir, "node_modules");
    await mkdir(join(modules, "@koishijs"), { recursive: true });
    const link = async (name: string, target: string) => symlink(await realpath(target), join(modules, name), "dir");
    await link("koishi-plugin-ishiki", core);
    for (const name of ["koishi", "koishi-plugin-adapter-onebot", "@koishijs/plugin-server", "@koishijs/plugin-http", "@koishijs/plugin-proxy-agent"]) {
      const path = dirname(requireFromCore.resolve(`${name}/package.json`, { paths: [core, join(core, "../../node_modules/.pnpm/node_modules")] }));
      await link(name, path);
    }
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "ishiki-onebot-e2e", private: true, dependencies: { koishi: "*", "@koishijs/plugin-http": "*", "@koishijs/plugin-proxy-agent": "*" } }));
    const port = await freePort();
    const config = {
      http: {},
      server: { host: "127.0.0.1", port },
      "adapter-onebot": { protocol: "ws-reverse", selfId: SELF, path: "/onebot" },
      ishiki: {
        models: { providers: { relay: { api: "openai-completions", baseUrl: `${model.url}/v1`, apiKey: "test", models: [{ id: "scripted" }] } } },
        profiles: {
          alice: { model: "relay:scripted", channels: { [`onebot:${SELF}`]: ["456", "private:*"] } },
          broken: { model: "nowhere:model", channels: { [`onebot:${SELF}`]: ["777"] } },
        },
      },
    };
    const plugins = Object.entries(config).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`).join("\n");
    await writeFile(join(dir, "koishi.yml"), `logger:\n  levels:\n    base: 2\nplugins:\n${plugins}\n`);
    child = spawn(process.execPath, [join(modules, "koishi/bin.js"), "start"], { cwd: dir, detached: true, env: { ...process.env, NODE_ENV: "production", FORCE_COLOR: "0" } });
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    await until(() => output.includes("[alice] profile active"), 20_000, `alice active; output:\n${output}`);
    peer = await connectPeer(port);
    await until(() => peer!.calls.some((call) => call.action === "get_login_info"), 10_000, `get_login_info; calls ${JSON.stringify(peer!.calls)}; output:\n${output}`);
  }, 60_000);

  afterAll(async () => {
    peer?.socket.close();
    // `koishi start` forks a worker: end the whole process group.
    try {
      if (child?.pid) process.kill(-child.pid, "SIGKILL");
    } catch {}
    await model?.close();
    await images?.close();
    if (dir && !process.env.KEEP) await rm(dir, { recursive: true, force: true });
  });

  const events = async (profile: string, channel: string) => {
    const path = join(dir, "data/ishiki/profiles", profile, "runtimes", `onebot%3A${SELF}`, channel, "events.jsonl");
    return existsSync(path) ? await readFile(path, "utf8") : "";
  };

  it("answers an @-mention in a group and a private message through send_message; ignores its own messages; a broken profile stays apart", async () => {
    peer!.push(message("group", SELF, 1, [{ type: "text", data: { text: "words the bot itself sent" } }]));
    peer!.push(message("group", "789", 2, [{ type: "at", data: { qq: SELF } }, { type: "text", data: { text: " ping from the group" } }]));
    peer!.push(message("group", "789", 3, [{ type: "at", data: { qq: SELF } }, { type: "text", data: { text: " hello broken" } }], "777"));
    await until(() => peer!.calls.some((call) => call.action === "send_group_msg"), 20_000, `send_group_msg; output:\n${output}`);
    const group = peer!.calls.find((call) => call.action === "send_group_msg")!;
    expect(String(group.params.group_id)).toBe("456");
    expect(JSON.stringify(group.params.message)).toContain("pong from alice");

    peer!.push(message("private", "789", 4, [{ type: "text", data: { text: "a picture for you" } }, { type: "image", data: { file: "cat.png", url: `${images.url}/cat.png` } }]));
    await until(() => peer!.calls.filter((call) => call.action === "send_private_msg").length >= 2, 20_000, `send_private_msg; output:\n${output}`);
    const [text, image] = peer!.calls.filter((call) => call.action === "send_private_msg");
    expect(String(text.params.user_id)).toBe("789");
    expect(JSON.stringify(text.params.message)).toContain("here is your picture");
    const file = JSON.stringify(image.params.message).match(/base64:\/\/([A-Za-z0-9+/=]+)/)?.[1];
    expect(file && Buffer.from(file, "base64").equals(PNG)).toBe(true);

    const groupFacts = await events("alice", "456");
    expect(groupFacts).toContain("ping from the group");
    expect(groupFacts).not.toContain("words the bot itself sent");
    // Sent messages are not stored as facts (KP-34): only the tool call carries them.
    expect(groupFacts.match(/"ishiki\.message\.created"/g)).toHaveLength(1);
    // The broken profile failed on its own, logged, and nothing it did reached the peer.
    expect(output).toMatch(/\[broken\/onebot:123\/777\].*nowhere/);
    expect(peer!.calls.filter((call) => call.action === "send_group_msg").every((call) => String(call.params.group_id) === "456")).toBe(true);
  }, 60_000);
});
