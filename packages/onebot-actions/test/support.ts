// A real Koishi app with the Ishiki kernel, Koishi's server, the OneBot adapter (reverse WebSocket) and this
// extension, plus a OneBot v11 peer written here on 127.0.0.1 that answers the adapter's action calls.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HTTP } from "@koishijs/plugin-http";
import Server from "@koishijs/plugin-server";
import { Context, Service } from "koishi";
import { OneBotBot } from "koishi-plugin-adapter-onebot";
import IshikiService from "koishi-plugin-ishiki";
import type { ChannelDomain, ExtensionHost, Runtime, ExtensionInstance, RuntimeDomain, ToolSet } from "koishi-plugin-ishiki";
import WebSocket from "ws";
import { OneBotActionsExtension, OneBotActionsSettings } from "../src/index.js";
import { scriptedModel, type ScriptedReply } from "../../core/test/agent-support.js";
import { serveScriptedModel } from "../../gateway/test/gateway-mock-api.js";
import { freePort } from "../../gateway/test/gateway-servers.js";

export const SELF = "123";
export const GROUP = "456";
export const groupChannel: ChannelDomain = { mode: "channel", platform: "onebot", selfId: SELF, channelId: GROUP, guildId: GROUP, isDirect: false };

// The scripted model is the core tests' one: answers each call with the next reply, the last repeating.
export { scriptedModel, type ScriptedReply };

/** What the peer answers: `data`, or a failed response. */
export type PeerAnswer = unknown | { failed: { retcode: number; message: string } };
export type PeerHandler = (params: Record<string, any>) => PeerAnswer | Promise<PeerAnswer>;

export interface Peer {
  calls: Array<{ action: string; params: Record<string, any> }>;
  handlers: Map<string, PeerHandler>;
  push(event: object): void;
  close(): void;
}

const defaults: Record<string, PeerHandler> = {
  get_login_info: () => ({ user_id: Number(SELF), nickname: "ishiki-bot" }),
  get_version_info: () => ({ app_name: "NapCat.Onebot", app_version: "4.0", protocol_version: "v11" }),
  get_group_list: () => [],
  get_friend_list: () => [],
  get_guild_list: () => [],
};

async function connectPeer(port: number): Promise<Peer> {
  const calls: Peer["calls"] = [];
  const handlers = new Map<string, PeerHandler>(Object.entries(defaults));
  let messageId = 9000;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/onebot`, { headers: { "X-Self-ID": SELF, "X-Client-Role": "Universal" } });
      socket.on("message", async (raw) => {
        const { action, params, echo } = JSON.parse(raw.toString());
        calls.push({ action, params });
        const handler = handlers.get(action);
        const answer = handler ? await handler(params) : action.startsWith("send_") ? { message_id: (messageId += 1) } : null;
        const failed = (answer as { failed?: { retcode: number; message: string } } | null)?.failed;
        socket.send(JSON.stringify(failed ? { status: "failed", retcode: failed.retcode, message: failed.message, data: null, echo } : { status: "ok", retcode: 0, data: answer, echo }));
      });
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", reject);
        socket.once("unexpected-response", () => reject(new Error("unexpected response")));
      });
      return { calls, handlers, push: (event) => socket.send(JSON.stringify(event)), close: () => socket.close() };
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Resolves once `predicate` holds, polling every 10 ms. */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = "condition"): Promise<void> {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface Kernel {
  app: Context;
  dir: string;
  port: number;
  peer: Peer;
  model: ReturnType<typeof scriptedModel>;
  dispose(): Promise<void>;
}

/** Starts Koishi with the server, the adapter, the kernel and this extension; connects the peer. */
export async function startKernel(profiles: Record<string, unknown>, replies: ScriptedReply[] = [{ calls: [{ id: "f", name: "finish" }] }]): Promise<Kernel> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-ob-"));
  const port = await freePort();
  const app = new Context();
  const model = scriptedModel(replies);
  app.plugin(HTTP, {});
  // The server plugin is typed against its own copy of cordis: its `Config` namespace confuses the overloads.
  app.plugin(Server as any, { host: "127.0.0.1", port });
  app.plugin(OneBotBot as any, { protocol: "ws-reverse", selfId: SELF, path: "/onebot", responseTimeout: 5000 });
  app.plugin(IshikiService, { dataPath: dir, profiles, models: { providers: {}, groups: {} } });
  app.plugin(OneBotActionsExtension, { logLevel: 2 });
  await app.start();
  serveScriptedModel(app.ishiki.gateway, model);
  const peer = await connectPeer(port);
  await until(() => app.bots.some((bot) => bot.platform === "onebot" && bot.selfId === SELF && bot.status === 1), 3_000, `bot online; bots ${JSON.stringify(app.bots.map((bot) => [bot.platform, bot.selfId, bot.status]))} calls ${JSON.stringify(peer.calls)}`);
  return {
    app,
    dir,
    port,
    peer,
    model,
    async dispose() {
      peer.close();
      await app.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A OneBot v11 message event as the peer pushes it. */
export function messageEvent(kind: "group" | "private", userId: string, messageId: number, text: string, groupId = GROUP) {
  return {
    post_type: "message",
    message_type: kind,
    sub_type: kind === "group" ? "normal" : "friend",
    time: Math.floor(Date.now() / 1000),
    self_id: Number(SELF),
    user_id: Number(userId),
    message_id: messageId,
    message: [{ type: "text", data: { text } }],
    raw_message: text,
    font: 0,
    sender: { user_id: Number(userId), nickname: `user${userId}`, card: "" },
    ...(kind === "group" ? { group_id: Number(groupId) } : {}),
  };
}

export interface Invoked {
  instance: ExtensionInstance | undefined;
  tools: ToolSet;
  host: ExtensionHost;
  logs: Array<{ level: string; message: string }>;
  runtime: Runtime;
}

const live = new Map<string, ExtensionInstance>();

export interface InvokeOptions {
  /** The runtime whose home, center and facts the instance uses (default: group 456 of profile `bare`). */
  domain?: RuntimeDomain;
  /** The domain the host reports, when it should differ from the runtime's (cross-mode account choice). */
  hostDomain?: RuntimeDomain;
  profileId?: string;
}

let invocations = 0;

/**
 * Invokes this extension's service directly with `config` on a runtime of a profile without extensions (its
 * real home, ResourceCenter and facts), attaches it to the runtime and returns its tools of this turn. Each
 * invocation gets its own profile root, so hourly counters never leak between tests.
 */
export async function invokeOneBot(kernel: Kernel, config: Partial<OneBotActionsSettings> = {}, options: InvokeOptions = {}): Promise<Invoked> {
  const profileId = options.profileId ?? "bare";
  const domain = options.domain ?? groupChannel;
  await until(() => kernel.app.ishiki.profile(profileId)?.status === "active", 10_000, `${profileId} active`);
  const runtime = await kernel.app.ishiki.runtime(profileId, domain);
  const service = (kernel.app as unknown as Record<string, OneBotActionsExtension>)["ishiki.ext.onebot-actions"];
  const root = join(kernel.dir, "roots", String((invocations += 1)));
  await mkdir(root, { recursive: true });
  const logs: Invoked["logs"] = [];
  const logger = new Proxy({} as typeof runtime.logger, {
    get: (_target, key) =>
      key === "warn" || key === "info" || key === "debug" ? (message: string) => logs.push({ level: String(key), message }) : Reflect.get(runtime.logger, key),
  });
  const host = { profileId, runtimeId: runtime.id, root, home: runtime.home, dataPath: kernel.dir, fiber: kernel.app, domain: options.hostDomain ?? domain, resources: runtime.resources, logger, gateway: kernel.app.ishiki.gateway, profileModel: () => kernel.app.ishiki.gateway.profileModel("mock:m"), runtime } as ExtensionHost;
  await live.get(runtime.id)?.stop?.();
  live.delete(runtime.id);
  const instance = await service[Service.invoke](host, new OneBotActionsSettings(config as OneBotActionsSettings));
  if (instance) live.set(runtime.id, instance);
  await instance?.attach?.(runtime);
  return { instance, tools: ((await instance?.extendTools?.()) ?? {}) as ToolSet, host, logs, runtime };
}

/** Calls a tool's `execute` as the SDK would; `caller: "codemode"` marks a nested program call. */
export async function call<T = unknown>(tools: ToolSet, name: string, input: unknown, extra: Record<string, unknown> = {}): Promise<T> {
  const execute = tools[name].execute as (input: unknown, options: unknown) => Promise<T>;
  return execute(input, { toolCallId: `call-${name}`, messages: [], ...extra });
}

/** Calls a tool and returns the thrown error's name and message. */
export async function failure(tools: ToolSet, name: string, input: unknown, extra: Record<string, unknown> = {}): Promise<{ name: string; message: string }> {
  try {
    await call(tools, name, input, extra);
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error(`${name} did not fail`);
}
