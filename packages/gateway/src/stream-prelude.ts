import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";

/**
 * Stream parts that carry no model output. A failure after them can still switch endpoints (spec 02 GW-23), and
 * they do not count as the model having started to answer (time-to-first-chunk deadline).
 */
export const PRELUDE = new Set<LanguageModelV4StreamPart["type"]>(["stream-start", "response-metadata", "raw", "ping"]);
