// How to test an extension or engine: a real Koishi app with the Ishiki kernel, a scripted model behind the
// gateway and an in-memory outbound port, all through the public API of koishi-plugin-ishiki.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Context, Logger } from "koishi";
import IshikiService, { createMemoryOutboundPort, MockLanguageModelV4, simulateReadableStream } from "koishi-plugin-ishiki";
import type { ChannelDomain, IshikiEvent, LanguageModelV4CallOptions, LanguageModelV4StreamPart, MemoryOutboundPort, ProviderV4 } from "koishi-plugin-ishiki";

/** One scripted model reply: some text and/or tool calls. */
export interface Reply {
  text?: string;
  calls?: Array<{ name: string; input?: unknown }>;
}

export interface TestKernel {
  app: Context;
  dataPath: string;
  /** Every model call's options, in order. */
  calls: LanguageModelV4CallOptions[];
  outbound: MemoryOutboundPort;
  /** Koishi log lines, `[type, content]`. */
  logs: Array<[string, string]>;
  dispose(): Promise<void>;
}

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

function streamOf(reply: Reply, call: number): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (reply.text) parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: reply.text }, { type: "text-end", id: "t" });
  (reply.calls ?? []).forEach((tool, index) => {
    parts.push({ type: "tool-call", toolCallId: `call-${call}-${index}`, toolName: tool.name, input: JSON.stringify(tool.input ?? {}) });
  });
  const unified = reply.calls?.length ? "tool-calls" : "stop";
  parts.push({ type: "finish", finishReason: { unified, raw: unified }, usage });
  return parts;
}

/**
 * Starts Koishi with `plugins` installed before the kernel and `profiles` in its config. The profiles' model is
 * `scripted:model`; each model call takes the next reply (the last one repeats).
 */
export async function startKernel(options: { profiles: Record<string, unknown>; replies: Reply[]; plugins?: (app: Context) => void }): Promise<TestKernel> {
  const dataPath = await mkdtemp(join(tmpdir(), "ishiki-examples-"));
  const logs: Array<[string, string]> = [];
  const target: Logger.Target = { colors: 0, record: (record) => void logs.push([record.type, record.content]) };
  Logger.targets.push(target);

  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (callOptions) => {
      calls.push(callOptions);
      const reply = options.replies[Math.min(calls.length - 1, options.replies.length - 1)];
      return { stream: simulateReadableStream({ chunks: streamOf(reply, calls.length), initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });

  const app = new Context();
  options.plugins?.(app);
  app.plugin(IshikiService, { dataPath, profiles: options.profiles });
  await app.start();
  const provider = { specificationVersion: "v4", languageModel: () => model } as unknown as ProviderV4;
  app.ishiki.gateway.defineApi("scripted", () => provider);
  app.ishiki.gateway.reconfigure({ providers: { scripted: { api: "scripted" } } });
  const outbound = createMemoryOutboundPort();
  app.ishiki.outbound = outbound;

  return {
    app,
    dataPath,
    calls,
    outbound,
    logs,
    async dispose() {
      await app.stop();
      Logger.targets.splice(Logger.targets.indexOf(target), 1);
      await rm(dataPath, { recursive: true, force: true });
    },
  };
}

export const channel: ChannelDomain = { mode: "channel", platform: "mock", selfId: "bot", channelId: "c1", isDirect: false };

let counter = 0;

/** A private message from Alice: the standard wakeup engine wakes on it. */
export function directMessage(content: string): IshikiEvent {
  counter += 1;
  const data = { timestamp: Date.now(), platform: "mock", selfId: "bot", channelId: "c1", isDirect: true, messageId: `m${counter}`, content, user: { id: "u1", name: "Alice" } };
  return { id: `fact-${counter}`, timestamp: data.timestamp, role: "custom", type: "ishiki.message.created", data };
}

/** Resolves once `predicate` holds. */
export async function until(predicate: () => boolean, timeoutMs = 4000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The text of every prompt message of one call, `role: text`. */
export function promptLines(call: LanguageModelV4CallOptions): string[] {
  return call.prompt.map((message) => {
    if (typeof message.content === "string") return `${message.role}: ${message.content}`;
    return `${message.role}: ${message.content.map((part) => ("text" in part ? part.text : part.type === "tool-result" ? JSON.stringify(part.output) : part.type)).join(" ")}`;
  });
}
