import type { LanguageModelUsage } from "ai";

const add = (left: number | undefined, right: number | undefined): number | undefined =>
  left === undefined && right === undefined ? undefined : (left ?? 0) + (right ?? 0);

/** Field-wise sum of two usages; a field unknown on both sides stays unknown. */
export function addUsage(left: LanguageModelUsage | undefined, right: LanguageModelUsage | undefined): LanguageModelUsage | undefined {
  if (left === undefined) return right;
  if (right === undefined) return left;
  return {
    inputTokens: add(left.inputTokens, right.inputTokens),
    inputTokenDetails: {
      noCacheTokens: add(left.inputTokenDetails?.noCacheTokens, right.inputTokenDetails?.noCacheTokens),
      cacheReadTokens: add(left.inputTokenDetails?.cacheReadTokens, right.inputTokenDetails?.cacheReadTokens),
      cacheWriteTokens: add(left.inputTokenDetails?.cacheWriteTokens, right.inputTokenDetails?.cacheWriteTokens),
    },
    outputTokens: add(left.outputTokens, right.outputTokens),
    outputTokenDetails: {
      textTokens: add(left.outputTokenDetails?.textTokens, right.outputTokenDetails?.textTokens),
      reasoningTokens: add(left.outputTokenDetails?.reasoningTokens, right.outputTokenDetails?.reasoningTokens),
    },
    totalTokens: add(left.totalTokens, right.totalTokens),
  };
}
