// A real Koishi app with the Ishiki kernel and the mcp-client extension, the stdio fixture server's command
// line, and helpers to invoke the extension directly on a runtime's real parts and call its tools.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Context, Logger, Service } from "koishi";
import IshikiService from "koishi-plugin-ishiki";
import type { ChannelDomain, ExtensionHost, ExtensionInstance, LanguageModelV4CallOptions, ToolSet } from "koishi-plugin-ishiki";
import { McpClientExtension } from "../src/index.js";
import { scriptedModel, type ScriptedReply } from "../../core/test/agent-support.js";

export const SERVER = fileURLToPath(new URL("./fixtures/server.mjs", import.meta.url));

export function channel(channelId = "c1"): ChannelDomain {
  return { mode: "channel", platform: "mock", selfId: "bot", channelId, isDirect: false };
}

/** A stdio entry running the fixture server with `env` (and anything else given). */
export function stdio(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [SERVER], ...extra };
}


export interface Kernel {
  app: Context;
  dir: string;
  prompts: LanguageModelV4CallOptions[];
  /** Koishi log lines `<logger> <type>: <text>`, every level. */
  logs: string[];
  dispose(): Promise<void>;
}

export interface KernelOptions {
  replies?: ScriptedReply[];
  idleCloseMs?: number;
  connectWaitMs?: number;
  /** Writes config files into the data directory before the app starts. */
  prepare?: (dir: string) => Promise<void>;
  plugins?: (app: Context) => void;
}

/** Starts Koishi with the kernel and the mcp-client extension at debug level; profiles use model `mock:m`. */
export async function startKernel(profiles: Record<string, unknown>, options: KernelOptions = {}): Promise<Kernel> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-mcp-"));
  await options.prepare?.(dir);
  const logs: string[] = [];
  const target: Logger.Target = { colors: 0, levels: { base: 3 }, record: (record) => void logs.push(`${record.name} ${record.type}: ${record.content}`) };
  // Only into `logs`: Koishi's console target would print every line of a passing test.
  const console = Logger.targets.splice(0, Logger.targets.length);
  Logger.targets.push(target);
  const replies = options.replies ?? [{ calls: [{ id: "f", name: "finish" }] }];
  const model = scriptedModel(replies);
  const prompts = model.prompts;
  const app = new Context();
  app.plugin(IshikiService, { dataPath: dir, profiles, models: { providers: {}, groups: {} } });
  app.plugin(McpClientExtension, { logLevel: 3, idleCloseMs: options.idleCloseMs ?? 60_000, connectWaitMs: options.connectWaitMs ?? 5_000 });
  options.plugins?.(app);
  await app.start();
  app.ishiki.gateway.defineApi("scripted", () => ({ specificationVersion: "v4", languageModel: () => model }) as never);
  app.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted" } } });
  return {
    app,
    dir,
    prompts,
    logs,
    async dispose() {
      await app.stop();
      Logger.targets.splice(0, Logger.targets.length, ...console);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

/** Resolves once `predicate` holds, polling every 10 ms. */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface Invoked {
  instance: ExtensionInstance;
  host: ExtensionHost;
  tools(): Promise<ToolSet>;
}

/**
 * Invokes the app's mcp-client service directly for a runtime of an active profile without extensions (its
 * real home and ResourceCenter), with the given profile root: what the kernel does at runtime creation.
 */
export async function invokeMcp(kernel: Kernel, options: { profileId?: string; root?: string; channelId?: string } = {}): Promise<Invoked> {
  const profileId = options.profileId ?? "bare";
  await until(() => kernel.app.ishiki.profile(profileId)?.status === "active");
  const runtime = await kernel.app.ishiki.runtime(profileId, channel(options.channelId));
  const service = (kernel.app as unknown as Record<string, McpClientExtension>)["ishiki.ext.mcp-client"];
  const root = options.root ?? join(kernel.dir, "profiles", profileId);
  const host = {
    profileId,
    runtimeId: runtime.id,
    root,
    home: runtime.home,
    dataPath: kernel.dir,
    fiber: kernel.app,
    domain: runtime.domain,
    resources: runtime.resources,
    logger: runtime.logger,
    gateway: kernel.app.ishiki.gateway,
    profileModel: () => kernel.app.ishiki.gateway.profileModel("mock:m"),
    runtime,
  } as ExtensionHost;
  const instance = (await service[Service.invoke](host))!;
  return { instance, host, tools: async () => (await instance.extendTools!()) as ToolSet };
}

/** Calls a tool's `execute` as the SDK would. */
export async function call<T = unknown>(tools: ToolSet, name: string, input: unknown, abortSignal?: AbortSignal): Promise<T> {
  const tool = tools[name];
  if (!tool) throw new Error(`no tool ${name}; have ${Object.keys(tools).join(", ")}`);
  const execute = tool.execute as (input: unknown, options: unknown) => Promise<T>;
  return execute(input, { toolCallId: `call-${name}`, messages: [], abortSignal });
}

/** Calls a tool and returns the thrown error's name and message. */
export async function failure(tools: ToolSet, name: string, input: unknown = {}, abortSignal?: AbortSignal): Promise<{ name: string; message: string }> {
  try {
    await call(tools, name, input, abortSignal);
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error(`${name} did not fail`);
}

/** The fixture's `whoami` answer. */
export async function whoami(tools: ToolSet, name: string): Promise<{ pid: number; cwd: string; env: Record<string, string>; headers: Record<string, string> | null }> {
  const blocks = await call<Array<{ type: string; text: string }>>(tools, name, {});
  return JSON.parse(blocks[0].text);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function readText(path: string): Promise<string> {
  return readFile(path, "utf8");
}

export interface StoredEntry {
  type: string;
  data: { role?: string; type?: string; content?: unknown; data?: unknown };
}

/** The runtime's events.jsonl, parsed. */
export async function entries(home: string): Promise<StoredEntry[]> {
  return (await readText(join(home, "events.jsonl"))).split("\n").filter(Boolean).map((line) => JSON.parse(line) as StoredEntry);
}

/** Each tool's last result output in the stored messages, by tool name. */
export function toolOutputs(list: StoredEntry[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of list) {
    if (entry.type !== "message" || entry.data.role !== "tool" || !Array.isArray(entry.data.content)) continue;
    for (const part of entry.data.content as Array<{ type: string; toolName: string; output: unknown }>) if (part.type === "tool-result") out[part.toolName] = part.output;
  }
  return out;
}
