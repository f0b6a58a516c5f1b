import type { Gateway, ModelPrices } from "@yesimagent/gateway";
import type { TokenCounts } from "./usage-sum.js";

/**
 * The estimated cost of `counts` at `prices` (per million tokens): cache reads at `cacheRead` (or `input` when
 * that is not declared), the other input tokens at `input`, output at `output`. `undefined` when the model
 * declares no price at all, so an unpriced model is never shown as free.
 */
export function costOf(counts: TokenCounts, prices: ModelPrices | undefined): number | undefined {
  if (prices === undefined || (prices.input === undefined && prices.output === undefined && prices.cacheRead === undefined)) return undefined;
  const input = prices.input ?? 0;
  const fresh = Math.max(0, counts.input - counts.cacheRead);
  return (fresh * input + counts.cacheRead * (prices.cacheRead ?? input) + counts.output * (prices.output ?? 0)) / 1_000_000;
}

/** The declared prices of `provider:model[:level]` (a level shares its model's prices). */
export function pricesOf(gateway: Gateway, ref: string): ModelPrices | undefined {
  return gateway.model(ref)?.metadata.prices;
}
