import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4Warning,
} from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";

/** What one role's model call produced: its text, tool calls, usage and warnings. */
export interface RoleOutput {
  text: string;
  calls: Array<Extract<LanguageModelV4Content, { type: "tool-call" }>>;
  usage: LanguageModelV4Usage;
  warnings: SharedV4Warning[];
}

/**
 * Runs one role's call through `doStream` and drains it: streaming is the one call every model (and the
 * gateway's failover model) serves, and the roles' output is needed whole before the next role starts.
 */
export async function runRole(model: LanguageModelV4, options: LanguageModelV4CallOptions): Promise<RoleOutput> {
  const { stream } = await model.doStream(options);
  const output: RoleOutput = { text: "", calls: [], usage: emptyUsage(), warnings: [] };
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") output.text += value.delta;
    else if (value.type === "tool-call") output.calls.push(value);
    else if (value.type === "stream-start") output.warnings.push(...value.warnings);
    else if (value.type === "finish") output.usage = value.usage;
    else if (value.type === "error") throw value.error;
  }
  return output;
}

export function emptyUsage(): LanguageModelV4Usage {
  return {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  };
}

/** The usage of several calls added field by field; a field stays undefined only if no call reported it. */
export function sumUsage(usages: readonly LanguageModelV4Usage[]): LanguageModelV4Usage {
  const add = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined ? b : b === undefined ? a : a + b);
  return usages.reduce<LanguageModelV4Usage>(
    (sum, usage) => ({
      inputTokens: {
        total: add(sum.inputTokens.total, usage.inputTokens.total),
        noCache: add(sum.inputTokens.noCache, usage.inputTokens.noCache),
        cacheRead: add(sum.inputTokens.cacheRead, usage.inputTokens.cacheRead),
        cacheWrite: add(sum.inputTokens.cacheWrite, usage.inputTokens.cacheWrite),
      },
      outputTokens: {
        total: add(sum.outputTokens.total, usage.outputTokens.total),
        text: add(sum.outputTokens.text, usage.outputTokens.text),
        reasoning: add(sum.outputTokens.reasoning, usage.outputTokens.reasoning),
      },
    }),
    emptyUsage(),
  );
}

/** A finished result as a stream (EN-42): the narration as one reasoning block, then the calls, then finish. */
export function replay(result: LanguageModelV4GenerateResult): ReadableStream<LanguageModelV4StreamPart> {
  const chunks: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: result.warnings }];
  result.content.forEach((part, index) => {
    if (part.type === "reasoning") {
      const id = `narration-${index}`;
      chunks.push({ type: "reasoning-start", id }, { type: "reasoning-delta", id, delta: part.text }, { type: "reasoning-end", id });
    } else if (part.type === "tool-call") {
      chunks.push(part);
    }
  });
  chunks.push({ type: "finish", finishReason: result.finishReason, usage: result.usage });
  return simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null });
}
