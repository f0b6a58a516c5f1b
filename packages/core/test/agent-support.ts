// Shared helpers for the agent-core tests: scripted V4 models, a recording logger, a custom message.
// The agent core declares no custom messages itself; these tests declare one of their own below.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import type { AgentEvent, AgentLogger, Agent } from "../src/index.js";

/** A retraction of a chat message: the custom message the core tests use wherever they need any. */
export interface TestRetraction {
  timestamp: number;
  platform: string;
  selfId: string;
  channelId: string;
  messageId: string;
}

declare module "../src/index.js" {
  interface AgentCustomMessage {
    "test.retraction": TestRetraction;
  }
}

export function retraction(messageId: string): TestRetraction {
  return { timestamp: 1, platform: "test", selfId: "bot", channelId: "c1", messageId };
}

export const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};

export type ScriptedReply = { text?: string; calls?: Array<{ id: string; name: string; input?: unknown }>; error?: unknown } | ((options: LanguageModelV4CallOptions) => Promise<ScriptedReply> | ScriptedReply);

function parts(reply: Exclude<ScriptedReply, Function>): LanguageModelV4StreamPart[] {
  const chunks: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (reply.error !== undefined) {
    chunks.push({ type: "error", error: reply.error });
    return chunks;
  }
  if (reply.text !== undefined) {
    chunks.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: reply.text }, { type: "text-end", id: "t" });
  }
  for (const call of reply.calls ?? []) {
    chunks.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input ?? {}) });
  }
  const calls = (reply.calls ?? []).length > 0;
  chunks.push({ type: "finish", finishReason: { unified: calls ? "tool-calls" : "stop", raw: calls ? "tool_calls" : "stop" }, usage });
  return chunks;
}

/** A model answering each call with the next scripted reply (the last one repeats). */
export function scriptedModel(replies: ScriptedReply[]): MockLanguageModelV4 & { prompts: LanguageModelV4CallOptions[] } {
  const prompts: LanguageModelV4CallOptions[] = [];
  let index = 0;
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      prompts.push(options);
      let reply = replies[Math.min(index, replies.length - 1)];
      index += 1;
      if (typeof reply === "function") reply = await reply(options);
      return { stream: simulateReadableStream({ chunks: parts(reply as Exclude<ScriptedReply, Function>), initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
  return Object.assign(model, { prompts });
}

export function recordingLogger(): AgentLogger & { lines: Array<[string, string]> } {
  const lines: Array<[string, string]> = [];
  return {
    lines,
    debug: (message) => lines.push(["debug", message]),
    info: (message) => lines.push(["info", message]),
    warn: (message) => lines.push(["warn", message]),
    error: (message) => lines.push(["error", message]),
  };
}

/** Collects every `"agent"` channel event. */
export function recordEvents(agent: Agent): AgentEvent[] {
  const events: AgentEvent[] = [];
  agent.channel.subscribe("agent", (event) => {
    events.push(event);
  });
  return events;
}

export async function tempDir(): Promise<{ dir: string; dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-agent-"));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The text of each prompt message, for asserting what a step saw. */
export function promptTexts(options: LanguageModelV4CallOptions): string[] {
  return options.prompt.map((message) => {
    if (typeof message.content === "string") return `${message.role}:${message.content}`;
    return `${message.role}:${message.content.map((part) => ("text" in part ? part.text : part.type === "tool-call" ? `call(${part.toolName})` : part.type === "tool-result" ? `result(${part.toolName}:${JSON.stringify(part.output)})` : part.type)).join("|")}`;
  });
}

/**
 * A scripted reply that holds the model call open: `entered` resolves once the step is inside the model call
 * (so the turn is accepting), and the reply is returned only after `release()`.
 */
export function heldReply(reply: Exclude<ScriptedReply, Function>): { reply: ScriptedReply; entered: Promise<void>; release(): void } {
  const entered = deferred();
  const released = deferred();
  return {
    reply: async () => {
      entered.resolve();
      await released.promise;
      return reply;
    },
    entered: entered.promise,
    release: () => released.resolve(),
  };
}
