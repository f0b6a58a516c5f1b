import type { AgentLogger } from "@yesimagent/core";
import type { ModelPrices } from "@yesimagent/gateway";
import type { BudgetSettings } from "../profile/index.js";
import { costOf } from "./prices.js";
import type { UsageItem } from "./usage-facts.js";
import type { TokenCounts } from "./usage-sum.js";

const DAY_MS = 86_400_000;

/** The start of the UTC day holding `at`. */
export function utcDayStart(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** What `ishiki.status` shows of a budget. */
export interface BudgetStatus {
  settings: BudgetSettings;
  tokens: number;
  cost: number;
  /** When today's limit was reached; undefined while under it. */
  reachedAt?: number;
}

/**
 * One profile's spending of the current UTC day against its budget (issue 22), over every model call of every
 * runtime of the profile in this process, seeded from the fact streams at activation. Crossing a limit is
 * logged once per day; the next UTC day starts from zero.
 */
export class DailyBudget {
  private day: number;
  private tokens = 0;
  private cost = 0;
  private reachedAt: number | undefined;

  public constructor(
    private readonly profileId: string,
    public readonly settings: BudgetSettings,
    private readonly prices: (model: string) => ModelPrices | undefined,
    private readonly logger: AgentLogger,
    private readonly now: () => number = Date.now,
  ) {
    this.day = utcDayStart(now());
  }

  /** Counts one model call. */
  public record(model: string, counts: TokenCounts): void {
    this.roll();
    this.add(model, counts);
  }

  /** Adds calls found on disk (at activation); only those of the current day count. */
  public seed(items: readonly UsageItem[]): void {
    this.roll();
    for (const item of items) if (utcDayStart(item.at) === this.day) this.add(item.model, item.counts);
  }

  public get reached(): boolean {
    this.roll();
    return this.reachedAt !== undefined;
  }

  /** The model the profile runs on now: the budget's group once reached with `whenReached: group`. */
  public modelFor(profileModel: string): string {
    return this.reached && this.settings.whenReached === "group" && this.settings.group !== undefined ? this.settings.group : profileModel;
  }

  public status(): BudgetStatus {
    this.roll();
    return { settings: this.settings, tokens: this.tokens, cost: this.cost, ...(this.reachedAt === undefined ? {} : { reachedAt: this.reachedAt }) };
  }

  private add(model: string, counts: TokenCounts): void {
    this.tokens += counts.input + counts.output;
    this.cost += costOf(counts, this.prices(model)) ?? 0;
    if (this.reachedAt !== undefined) return;
    const { dailyTokens, dailyCost } = this.settings;
    const overTokens = dailyTokens > 0 && this.tokens >= dailyTokens;
    const overCost = dailyCost > 0 && this.cost >= dailyCost;
    if (!overTokens && !overCost) return;
    this.reachedAt = this.now();
    const spent = overTokens ? `${this.tokens} of ${dailyTokens} tokens` : `cost ${this.cost.toFixed(4)} of ${dailyCost}`;
    const then = this.settings.whenReached === "group" ? `switching to ${this.settings.group}` : "waking only for direct mentions";
    this.logger.warn(`[${this.profileId}] daily budget reached (${spent} today, UTC): ${then} until the next UTC day`);
  }

  private roll(): void {
    const day = utcDayStart(this.now());
    if (day === this.day) return;
    this.day = day;
    this.tokens = 0;
    this.cost = 0;
    if (this.reachedAt !== undefined) this.logger.info(`[${this.profileId}] daily budget: a new UTC day, limits lifted`);
    this.reachedAt = undefined;
  }
}
