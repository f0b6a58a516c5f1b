// A real Koishi app with SQLite (the minato driver through `ishiki-memory/sqlite`, on a file in a temp dir), the
// Ishiki kernel and the memory extension, driven by a scripted model whose replies each test queues.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Context, Logger, Service } from "koishi";
import IshikiService, { createCustomMessage } from "koishi-plugin-ishiki";
import type { ChannelDomain, ExtensionHost, IshikiEvent, IshikiMessageCreated, LanguageModelV4CallOptions, RuntimeDomain, ToolSet } from "koishi-plugin-ishiki";
import * as sqlite from "../src/sqlite/index.js";
import { MemoryExtension, MemorySettings } from "../src/index.js";
import { scriptedModel, type ScriptedReply } from "../../core/test/agent-support.js";
import { serveScriptedModel } from "../../gateway/test/gateway-mock-api.js";
import { stopApp } from "../../koishi-plugin-ishiki/test/stop-app.js";

export type Reply = Exclude<ScriptedReply, Function>;
export const finish: Reply = { calls: [{ id: "f", name: "finish" }] };

export interface Kernel {
  app: Context;
  dir: string;
  model: ReturnType<typeof scriptedModel>;
  /** Replies for the next model calls, in order; an empty queue answers `finish`. */
  queue: Array<Reply | ((options: LanguageModelV4CallOptions) => Reply)>;
  /** Every log line of the app, `[type, text]`; nothing reaches the console, so a passing test prints nothing. */
  logs: Array<[string, string]>;
  /** Stops the app and keeps the directory (for a restart). */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

export interface StartOptions {
  /** Reuse this data directory (and its database): a restart. */
  dir?: string;
  memory?: Partial<MemoryExtension.Config>;
  /** Extra plugins, loaded before start (e.g. the mock adapter). */
  plugins?(app: Context): void;
  /** Extra setup after start, before the first wake (e.g. an embedding API). */
  prepare?(app: Context): void;
}

/** Starts Koishi with SQLite, the kernel and the memory extension; profiles use model `mock:m`. */
export async function startKernel(profiles: Record<string, unknown>, options: StartOptions = {}): Promise<Kernel> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "ishiki-memory-")));
  const logs: Array<[string, string]> = [];
  const saved = Logger.targets.splice(0, Logger.targets.length, { colors: 0, record: (record) => void logs.push([record.type, record.content]) });
  const app = new Context();
  const queue: Kernel["queue"] = [];
  const model = scriptedModel([
    (call) => {
      const next = queue.shift() ?? finish;
      return typeof next === "function" ? next(call) : next;
    },
  ]);
  options.plugins?.(app);
  app.plugin(sqlite, { path: join(dir, "memory.db") });
  app.plugin(IshikiService, { dataPath: dir, profiles, models: { providers: {}, groups: {} } });
  app.plugin(MemoryExtension, { logLevel: 2, adminAuthority: 4, ...options.memory } as MemoryExtension.Config);
  await app.start();
  serveScriptedModel(app.ishiki.gateway, model);
  options.prepare?.(app);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopApp(app);
    Logger.targets.splice(0, Logger.targets.length, ...saved);
  };
  return {
    app,
    dir,
    model,
    queue,
    logs,
    stop,
    async dispose() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `predicate` holds, polling every 5 ms. */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const group = (channelId: string, selfId = "bot"): ChannelDomain => ({ mode: "channel", platform: "mock", selfId, channelId, isDirect: false });

let messageCounter = 0;

/** A group message fact from `userId`. */
export function said(domain: ChannelDomain, userId: string, content: string, name = userId): IshikiEvent {
  messageCounter += 1;
  const data: IshikiMessageCreated = {
    timestamp: Date.now(),
    platform: domain.platform,
    selfId: domain.selfId,
    channelId: domain.channelId,
    isDirect: domain.isDirect,
    messageId: `m${messageCounter}`,
    content,
    user: { id: userId, name },
  };
  return createCustomMessage("ishiki.message.created", data, { timestamp: data.timestamp });
}

export const messageId = (event: IshikiEvent): string => (event.data as IshikiMessageCreated).messageId;

/** The system text the model saw on a call. */
export const systemText = (options: LanguageModelV4CallOptions): string =>
  options.prompt
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n");

/** The results of tool calls the model saw on a call, by tool name (the latest of each). */
export function toolResults(options: LanguageModelV4CallOptions): Record<string, unknown> {
  const results: Record<string, unknown> = {};
  for (const message of options.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result") results[part.toolName] = part.output;
  }
  return results;
}

/** Calls a tool's `execute` as the SDK would. */
export async function call<T = unknown>(tools: ToolSet, name: string, input: unknown): Promise<T> {
  const execute = tools[name].execute as (input: unknown, options: unknown) => Promise<T>;
  return execute(input, { toolCallId: `call-${name}`, messages: [] });
}

/**
 * Invokes the memory service of the app directly for a runtime of `profile` at `domain` (a real runtime's home
 * and ResourceCenter, so use a profile that does not enable memory itself), with `settings`, attached to the
 * runtime handle so it learns the runtime's facts. The previous instance on the same runtime is stopped first
 * (it holds the runtime's `memory://` scheme).
 */
const live = new Map<string, { stop(): Promise<void> }>();

export async function invokeMemory(kernel: Kernel, profile: string, domain: RuntimeDomain, settings: Partial<MemorySettings> = {}) {
  await until(() => kernel.app.ishiki.profile(profile)?.status === "active");
  const runtime = await kernel.app.ishiki.runtime(profile, domain as ChannelDomain);
  const service = (kernel.app as unknown as Record<string, MemoryExtension>)["ishiki.ext.memory"];
  const warnings: string[] = [];
  const logger = new Proxy({} as typeof runtime.logger, {
    get: (_target, key) => (key === "warn" ? (message: string) => warnings.push(message) : Reflect.get(runtime.logger, key)),
  });
  const host = {
    profileId: profile,
    runtimeId: `${runtime.id}#direct`,
    root: join(kernel.dir, "profiles", profile),
    home: runtime.home,
    dataPath: kernel.dir,
    fiber: kernel.app,
    domain,
    resources: runtime.resources,
    logger,
    gateway: kernel.app.ishiki.gateway,
    profileModel: () => kernel.app.ishiki.gateway.profileModel("mock:m"),
    runtime,
  } as unknown as ExtensionHost;
  await live.get(runtime.id)?.stop();
  const instance = (await service[Service.invoke](host, new MemorySettings(settings as MemorySettings)))!;
  const detach = await instance.attach?.(runtime);
  live.set(runtime.id, {
    async stop() {
      await instance.stop?.();
      if (detach) await detach();
    },
  });
  const tools = (await instance.extendTools!()) as ToolSet;
  return { runtime, instance, tools, warnings, service, detach: () => (detach ? detach() : undefined) };
}
