// A Koishi app with the mock adapter and the ishiki kernel, for the spec 08 tests: profile files can be written
// before start, the scripted model answers behind the gateway, and every `ishiki` log line is recorded.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { LanguageModelV4, ProviderV4 } from "@ai-sdk/provider";
import { MockBot } from "@koishijs/plugin-mock";
import { Context, Logger, type ForkScope } from "koishi";
import { IshikiService } from "../src/koishi/index.js";
import { runtimesStopped } from "../src/runtime/index.js";
import { scriptedModel, type ScriptedReply } from "../../core/test/agent-support.js";
import { stopApp } from "./stop-app.js";

export interface MockKernel {
  app: Context;
  dir: string;
  bot: MockBot;
  /** The kernel plugin's scope; disposing it is the plugin's dispose (KP-21). */
  kernelScope: ForkScope;
  model: ReturnType<typeof scriptedModel>;
  logs: Array<[string, string]>;
  logged(text: string): boolean;
  dispose(): Promise<void>;
}

export interface MockKernelOptions {
  profiles?: Record<string, unknown>;
  /** Files under the data directory, written before start (`profiles/<id>/profile.yml`, `persona.md`, …). */
  files?: Record<string, string>;
  replies?: ScriptedReply[];
  /** Answers instead of the scripted model, for tests that need stream parts the script cannot express. */
  languageModel?: LanguageModelV4;
  selfId?: string;
  debugStream?: boolean;
  logLevel?: number;
}

export async function startMockKernel(options: MockKernelOptions): Promise<MockKernel> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-koishi-"));
  for (const [path, text] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const logs: Array<[string, string]> = [];
  const target: Logger.Target = { colors: 0, record: (record) => void logs.push([record.type, record.content]) };
  Logger.targets.push(target);
  const model = scriptedModel(options.replies ?? [{ calls: [{ id: "f", name: "finish" }] }]);
  const app = new Context();
  app.plugin(MockBot, { selfId: options.selfId ?? "bot" });
  const kernelScope = app.plugin(IshikiService, {
    dataPath: dir,
    profiles: options.profiles ?? {},
    models: { providers: {}, groups: {} },
    debugStream: options.debugStream ?? false,
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
  });
  // The scripted dialect must exist before the first runtime; define it as soon as the service is set.
  app.inject(["ishiki"], (ctx) => {
    ctx.ishiki.gateway.defineApi("scripted", (): ProviderV4 => ({
      specificationVersion: "v4",
      languageModel: () => options.languageModel ?? model,
      embeddingModel: () => {
        throw new Error("no embeddings");
      },
      imageModel: () => {
        throw new Error("no images");
      },
    }) as ProviderV4);
    ctx.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted" } } });
  });
  await app.start();
  const bot = app.bots["mock:" + (options.selfId ?? "bot")] as unknown as MockBot;
  return {
    app,
    dir,
    bot,
    kernelScope,
    model,
    logs,
    logged: (text) => logs.some(([, line]) => line.includes(text)),
    async dispose() {
      await stopApp(app);
      // Koishi does not await dispose listeners: let every runtime finish writing before its home is removed.
      await runtimesStopped();
      Logger.targets.splice(Logger.targets.indexOf(target), 1);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `predicate` holds (the kernel's work is asynchronous). */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
