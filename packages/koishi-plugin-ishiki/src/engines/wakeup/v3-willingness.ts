import type { V3WakeupOptions } from "./v3-block.js";

/** What raises willingness for one fact (spec 06 EN-33). */
export interface WillingnessSignals {
  atMention: boolean;
  isQuote: boolean;
  isDirectMessage: boolean;
  keyword: boolean;
}

/**
 * Decays `score` over `seconds` whole seconds (spec 06 EN-32): half-life `2·halfLife` while above the threshold,
 * `halfLife` at or below it; below 0.01 it is 0. The crossing second is found in closed form, so long idle
 * periods cost no loop.
 */
export function decayWillingness(score: number, seconds: number, options: V3WakeupOptions): number {
  if (seconds <= 0 || score <= 0) return score;
  const slow = Math.pow(0.5, 1 / (2 * options.decayHalfLifeSeconds));
  const fast = Math.pow(0.5, 1 / options.decayHalfLifeSeconds);
  const threshold = options.probabilityThreshold;
  let remaining = seconds;
  if (score > threshold) {
    // Seconds at the slow rate until the score is at or below the threshold (never, for a threshold of 0).
    const above = threshold > 0 ? Math.max(1, Math.ceil(Math.log(threshold / score) / Math.log(slow))) : Infinity;
    const spent = Math.min(above, remaining);
    score *= Math.pow(slow, spent);
    remaining -= spent;
  }
  if (remaining > 0) score *= Math.pow(fast, remaining);
  return score < 0.01 ? 0 : score;
}

/** The willingness after one fact (spec 06 EN-33): gain damped near the maximum, capped at `maxWillingness`. */
export function raiseWillingness(score: number, signals: WillingnessSignals, options: V3WakeupOptions): number {
  const max = options.maxWillingness;
  const r = Math.min(1, Math.max(0, score / max));
  const raw = options.base + (signals.atMention ? options.atMention : 0) + (signals.isQuote ? options.isQuote : 0) + (signals.isDirectMessage ? options.isDirectMessage : 0);
  const multiplier = signals.keyword ? options.keywordMultiplier : options.defaultMultiplier;
  const shape = r < 0.2 ? 1 : r < 0.8 ? 1 + ((r - 0.2) * (0.8 - r)) / 0.09 : (1 - r) / 0.2;
  return Math.min(max, score + raw * multiplier * (1 - r * r) * shape);
}

/** The chance to wake at `score` (spec 06 EN-34): 0 at or below the threshold, then linear, clamped to [0, 1]. */
export function wakeProbability(score: number, options: V3WakeupOptions): number {
  if (score <= options.probabilityThreshold) return 0;
  return Math.min(1, Math.max(0, (score - options.probabilityThreshold) * options.probabilityAmplifier));
}
