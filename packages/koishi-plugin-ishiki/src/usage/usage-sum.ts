import type { LanguageModelUsage } from "ai";
import type { LanguageModelV4Usage } from "@ai-sdk/provider";

/** Token counts of one call or a sum of calls, in the form every report and budget works with. */
export interface TokenCounts {
  input: number;
  output: number;
  /** Input tokens read from the provider's cache (part of `input`). */
  cacheRead: number;
}

export const NO_TOKENS: TokenCounts = Object.freeze({ input: 0, output: 0, cacheRead: 0 });

export function addCounts(left: TokenCounts, right: TokenCounts): TokenCounts {
  return { input: left.input + right.input, output: left.output + right.output, cacheRead: left.cacheRead + right.cacheRead };
}

/** The counts of a usage as the agent stores it on step facts (`LanguageModelUsage`); missing fields count 0. */
export function countsOf(usage: LanguageModelUsage | undefined): TokenCounts {
  if (usage === undefined) return NO_TOKENS;
  return { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0, cacheRead: usage.inputTokenDetails?.cacheReadTokens ?? 0 };
}

/**
 * A model's V4 usage as the agent stores it (the AI SDK's `LanguageModelUsage`), so side-request facts and step
 * facts have one shape.
 */
export function storedUsage(usage: LanguageModelV4Usage): LanguageModelUsage {
  const input = usage.inputTokens;
  const output = usage.outputTokens;
  const total = input.total === undefined && output.total === undefined ? undefined : (input.total ?? 0) + (output.total ?? 0);
  return {
    inputTokens: input.total,
    inputTokenDetails: { noCacheTokens: input.noCache, cacheReadTokens: input.cacheRead, cacheWriteTokens: input.cacheWrite },
    outputTokens: output.total,
    outputTokenDetails: { textTokens: output.text, reasoningTokens: output.reasoning },
    totalTokens: total,
  };
}
