// A real Koishi app with the ishiki kernel for runtime, extension, engine and tool tests: a scripted model
// behind the gateway (api "scripted"), an in-memory outbound port, and helpers to build facts.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProviderV4 } from "@ai-sdk/provider";
import { Context, Logger } from "koishi";
import type { AgentEntry } from "@yesimagent/core";
import type { ChannelDomain } from "../src/extension/index.js";
import { IshikiService } from "../src/koishi/index.js";
import { runtimesStopped } from "../src/runtime/index.js";
import { createMemoryOutboundPort, type MemoryOutboundPort } from "../src/tools/index.js";
import type { IshikiEvent, IshikiMessageCreated } from "../src/types/index.js";
import { scriptedModel, type ScriptedReply } from "../../core/test/agent-support.js";
import { stopApp } from "./stop-app.js";

export interface KernelApp {
  app: Context;
  dir: string;
  model: ReturnType<typeof scriptedModel>;
  outbound: MemoryOutboundPort;
  /** Log lines of the `ishiki` loggers, `[level, text]`. */
  logs: Array<[string, string]>;
  dispose(): Promise<void>;
}

export interface KernelAppOptions {
  profiles: Record<string, unknown>;
  replies?: ScriptedReply[];
  /** Plugins installed before the kernel starts. */
  setup?(app: Context): void;
  /** Input modalities `mock:m` declares (e.g. `["text", "image"]` for `resources.imageInput`). */
  modelInput?: Array<"text" | "image">;
}

/** Starts a Koishi app with the kernel; the profiles' model reference is `mock:m`. */
export async function startKernel(options: KernelAppOptions): Promise<KernelApp> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-runtime-"));
  const app = new Context();
  const logs: Array<[string, string]> = [];
  const target: Logger.Target = { colors: 0, record: (record) => void logs.push([record.type, record.content]) };
  Logger.targets.push(target);
  const level = Logger.levels.base;
  Logger.levels.base = Logger.DEBUG;
  const model = scriptedModel(options.replies ?? [{ calls: [{ id: "f", name: "finish" }] }]);
  const outbound = createMemoryOutboundPort();
  const models = options.modelInput === undefined ? {} : { models: [{ id: "m", input: options.modelInput }] };
  app.on("internal/error", (error: unknown) => logs.push(["error", String(error)]));
  app.plugin(IshikiService, {
    dataPath: dir,
    profiles: options.profiles,
    // Declared models must exist at activation (the imageInput gate); the scripted api replaces it after start.
    models: { providers: options.modelInput === undefined ? {} : { mock: { api: "openai-completions", baseUrl: "http://127.0.0.1:9", ...models } }, groups: {} },
  });
  options.setup?.(app);
  await app.start();
  app.ishiki.gateway.defineApi("scripted", (): ProviderV4 => ({
    specificationVersion: "v4",
    languageModel: () => model,
    embeddingModel: () => {
      throw new Error("no embeddings");
    },
    imageModel: () => {
      throw new Error("no images");
    },
  }) as ProviderV4);
  app.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted", ...models } } });
  app.ishiki.outbound = outbound;
  return {
    app,
    dir,
    model,
    outbound,
    logs,
    async dispose() {
      await stopApp(app);
      // Koishi does not await dispose listeners: let every runtime finish writing before its home is removed.
      await runtimesStopped();
      Logger.targets.splice(Logger.targets.indexOf(target), 1);
      Logger.levels.base = level;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const channel: ChannelDomain = { mode: "channel", platform: "mock", selfId: "bot", channelId: "c1", isDirect: false };

let messageCounter = 0;

/** A `ishiki.message.created` fact from user `u1` (`Alice`) in `channel`. */
export function fact(content: string, overrides: Partial<IshikiMessageCreated> = {}): IshikiEvent {
  messageCounter += 1;
  const data: IshikiMessageCreated = {
    timestamp: Date.UTC(2026, 10, 30, 1, 2),
    platform: "mock",
    selfId: "bot",
    channelId: "c1",
    isDirect: false,
    messageId: `m${messageCounter}`,
    content,
    user: { id: "u1", name: "Alice" },
    ...overrides,
  };
  return { id: `fact-${messageCounter}`, timestamp: data.timestamp, role: "custom", type: "ishiki.message.created", data };
}

/** The entries of a runtime's events.jsonl. */
export async function readEvents(home: string): Promise<AgentEntry[]> {
  const text = await readFile(join(home, "events.jsonl"), "utf8").catch(() => "");
  // Tests poll while the runtime appends: a line is complete only once its newline is written.
  return text
    .slice(0, text.lastIndexOf("\n") + 1)
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AgentEntry);
}

/** Each stored tool result as the model saw it: JSON values parsed, error texts as `{ error }`. */
export function toolOutputs(entries: readonly AgentEntry[]): unknown[] {
  const outputs: unknown[] = [];
  for (const entry of entries) {
    if (entry.type !== "message" || entry.data.role !== "tool") continue;
    for (const part of entry.data.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output;
      if (output.type === "json") outputs.push(output.value);
      else if (output.type === "error-text") outputs.push({ error: output.value });
      else if (output.type === "text") {
        try {
          outputs.push(JSON.parse(output.value));
        } catch {
          outputs.push(output.value);
        }
      } else outputs.push(output);
    }
  }
  return outputs;
}

/** A compact label per entry: `fact`, `turn.start`, `assistant:<tools>`, `tool:<tools>`, `user:<text>`, … */
export function labels(entries: readonly AgentEntry[]): string[] {
  return entries.map((entry) => {
    if (entry.type === "event") return entry.data.type;
    if (entry.type !== "message") return entry.type;
    const message = entry.data;
    if (message.role === "custom") return message.type === "ishiki.message.created" ? "fact" : message.type;
    if (message.role === "user") return `user:${typeof message.content === "string" ? message.content : "parts"}`;
    if (message.role === "assistant" && typeof message.content !== "string") {
      return `assistant:${message.content.filter((part) => part.type === "tool-call").map((part) => (part as { toolName: string }).toolName).join(",")}`;
    }
    if (message.role === "tool") return `tool:${message.content.map((part) => (part as { toolName: string }).toolName).join(",")}`;
    return message.role;
  });
}

/** Starts the kernel and waits until `profileId` is active. */
export async function startActive(profileId: string, options: KernelAppOptions): Promise<KernelApp> {
  const kernel = await startKernel(options);
  await until(() => kernel.app.ishiki.profile(profileId)?.status === "active");
  return kernel;
}

/** Whether a log line containing `text` was written. */
export function logged(kernel: KernelApp, text: string, level?: string): boolean {
  return kernel.logs.some(([type, line]) => line.includes(text) && (level === undefined || type === level));
}

/** Resolves once `predicate` holds, polling every 5 ms (the kernel's work is asynchronous). */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
