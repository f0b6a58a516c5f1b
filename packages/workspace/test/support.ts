// A real Koishi app with the Ishiki kernel and the workspace extension, plus helpers to invoke the extension
// directly on a runtime's real home and ResourceCenter and to call its tools.
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Context, Service } from "koishi";
import IshikiService from "koishi-plugin-ishiki";
import type { ChannelDomain, ExtensionHost, ExtensionInstance, ToolSet } from "koishi-plugin-ishiki";
import { WorkspaceExtension, WorkspaceSettings } from "../src/index.js";
import { scriptedModel, type ScriptedReply } from "../../core/test/agent-support.js";
import { serveScriptedModel } from "../../gateway/test/gateway-mock-api.js";

export const channel: ChannelDomain = { mode: "channel", platform: "mock", selfId: "bot", channelId: "c1", isDirect: false };

// The scripted model is the core tests' one: answers each call with the next reply, the last repeating.
export { scriptedModel, type ScriptedReply };

export interface Kernel {
  app: Context;
  /** The data directory (a fresh temp dir). */
  dir: string;
  model: ReturnType<typeof scriptedModel>;
  warnings: string[];
  dispose(): Promise<void>;
}

/** Starts Koishi with the kernel and the workspace extension; profiles use model `mock:m`. */
export async function startKernel(profiles: Record<string, unknown>, replies: ScriptedReply[] = [{ calls: [{ id: "f", name: "finish" }] }], prepare?: (dir: string) => Promise<void>): Promise<Kernel> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-ws-"));
  await prepare?.(dir);
  const app = new Context();
  const warnings: string[] = [];
  const model = scriptedModel(replies);
  app.plugin(IshikiService, { dataPath: dir, profiles, models: { providers: {}, groups: {} } });
  app.plugin(WorkspaceExtension, { logLevel: 2 });
  await app.start();
  serveScriptedModel(app.ishiki.gateway, model);
  return {
    app,
    dir,
    model,
    warnings,
    async dispose() {
      await app.stop();
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

/** A runtime of a profile without extensions: a real home and ResourceCenter to invoke the workspace on. */
export async function bareRuntime(kernel: Kernel, profileId = "bare") {
  await until(() => kernel.app.ishiki.profile(profileId)?.status === "active");
  return kernel.app.ishiki.runtime(profileId, channel);
}

export interface Invoked {
  instance: ExtensionInstance;
  tools: ToolSet;
  host: ExtensionHost;
  warnings: string[];
}

const live = new Map<string, ExtensionInstance>();

/**
 * Invokes the workspace extension service of the app directly with `config`, on a bare runtime's parts. The
 * previous instance on the same runtime is stopped first (it holds the runtime's `workspace://` scheme).
 */
export async function invokeWorkspace(kernel: Kernel, config: Partial<WorkspaceSettings> = {}, profileId = "bare"): Promise<Invoked> {
  const runtime = await bareRuntime(kernel, profileId);
  const service = (kernel.app as unknown as Record<string, WorkspaceExtension>)["ishiki.ext.workspace"];
  const warnings: string[] = [];
  const root = join(kernel.dir, "profiles", profileId);
  await mkdir(root, { recursive: true });
  const logger = new Proxy({} as typeof runtime.logger, {
    get: (_target, key) => (key === "warn" ? (message: string) => warnings.push(message) : Reflect.get(runtime.logger, key)),
  });
  const host = {
    profileId,
    runtimeId: runtime.id,
    root,
    home: runtime.home,
    dataPath: kernel.dir,
    fiber: kernel.app,
    domain: runtime.domain,
    resources: runtime.resources,
    logger,
    gateway: kernel.app.ishiki.gateway,
    profileModel: () => kernel.app.ishiki.gateway.profileModel("mock:m"),
    runtime,
  } as ExtensionHost;
  await live.get(runtime.id)?.stop?.();
  live.delete(runtime.id);
  const instance = (await service[Service.invoke](host, new WorkspaceSettings(config as WorkspaceSettings)))!;
  live.set(runtime.id, instance);
  return { instance, tools: (await instance.extendTools!()) as ToolSet, host, warnings };
}

/** Calls a tool's `execute` as the SDK would. */
export async function call<T = unknown>(tools: ToolSet, name: string, input: unknown, abortSignal?: AbortSignal): Promise<T> {
  const execute = tools[name].execute as (input: unknown, options: unknown) => Promise<T>;
  return execute(input, { toolCallId: `call-${name}`, messages: [], abortSignal });
}

/** Calls a tool and returns the thrown error's name and message. */
export async function failure(tools: ToolSet, name: string, input: unknown): Promise<{ name: string; message: string }> {
  try {
    await call(tools, name, input);
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error(`${name} did not fail`);
}

/** A snapshot of every file under a host directory (path → content), to prove nothing changed. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (path: string): Promise<void> => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files[full] = await readFile(full, "utf8");
      else if (entry.isSymbolicLink()) files[full] = `-> symlink`;
    }
  };
  await walk(dir);
  return files;
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
