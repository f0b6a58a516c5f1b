import type { ModelPrices } from "@yesimagent/gateway";
import { costOf } from "./prices.js";
import type { UsageItem } from "./usage-facts.js";
import { addCounts, NO_TOKENS, type TokenCounts } from "./usage-sum.js";

/** One line of a usage report: tokens and the estimated cost of the calls it covers. */
export interface UsageLine {
  key: string;
  calls: number;
  counts: TokenCounts;
  /** The sum over priced calls; undefined when none was priced. */
  cost?: number;
  /** Some calls with tokens had no declared price, so `cost` is a lower bound. */
  unpriced: boolean;
}

export interface UsageReport {
  total: UsageLine;
  byProfile: UsageLine[];
  byChannel: UsageLine[];
  byModel: UsageLine[];
  byPurpose: UsageLine[];
}

function emptyLine(key: string): UsageLine {
  return { key, calls: 0, counts: NO_TOKENS, unpriced: false };
}

function add(line: UsageLine, item: UsageItem, cost: number | undefined): void {
  line.calls += 1;
  line.counts = addCounts(line.counts, item.counts);
  if (cost !== undefined) line.cost = (line.cost ?? 0) + cost;
  else if (item.counts.input + item.counts.output > 0) line.unpriced = true;
}

/** Sums model calls per profile, channel, model and purpose, pricing each call by its model's declared prices. */
export function summariseUsage(items: readonly UsageItem[], prices: (model: string) => ModelPrices | undefined): UsageReport {
  const total = emptyLine("total");
  const groups = { profile: new Map<string, UsageLine>(), channel: new Map<string, UsageLine>(), model: new Map<string, UsageLine>(), purpose: new Map<string, UsageLine>() };
  const line = (map: Map<string, UsageLine>, key: string): UsageLine => {
    let found = map.get(key);
    if (found === undefined) map.set(key, (found = emptyLine(key)));
    return found;
  };
  for (const item of items) {
    const cost = costOf(item.counts, prices(item.model));
    add(total, item, cost);
    add(line(groups.profile, item.profile), item, cost);
    add(line(groups.channel, `${item.profile}/${item.channel}`), item, cost);
    add(line(groups.model, item.model), item, cost);
    add(line(groups.purpose, item.purpose), item, cost);
  }
  const sorted = (map: Map<string, UsageLine>) => [...map.values()].sort((a, b) => b.counts.input + b.counts.output - (a.counts.input + a.counts.output) || a.key.localeCompare(b.key));
  return { total, byProfile: sorted(groups.profile), byChannel: sorted(groups.channel), byModel: sorted(groups.model), byPurpose: sorted(groups.purpose) };
}
