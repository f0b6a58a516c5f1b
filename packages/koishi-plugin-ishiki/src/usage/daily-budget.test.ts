import { describe, expect, it } from "vitest";
import { DailyBudget } from "./daily-budget.js";

const day = Date.UTC(2026, 11, 1);
const prices = { input: 1000, output: 1000 };

function recordingLogger() {
  const lines: Array<[string, string]> = [];
  const log = (level: string) => (message: string) => void lines.push([level, message]);
  return { lines, debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

function budget(settings: Partial<DailyBudget["settings"]>, clock: { now: number }) {
  const logger = recordingLogger();
  const value = new DailyBudget("p", { dailyTokens: 0, dailyCost: 0, whenReached: "mentions", ...settings }, (model) => (model === "r:priced" ? prices : undefined), logger, () => clock.now);
  return { budget: value, logger };
}

describe("daily budgets (issue 22)", () => {
  it("a token limit is reached at the call that meets it, logged once, and lifted on the next UTC day", () => {
    const clock = { now: day + 23 * 3600_000 };
    const { budget: spending, logger } = budget({ dailyTokens: 10 }, clock);
    spending.record("r:m", { input: 4, output: 2, cacheRead: 0 });
    expect(spending.reached).toBe(false);
    spending.record("r:m", { input: 3, output: 1, cacheRead: 0 });
    expect(spending.reached).toBe(true);
    spending.record("r:m", { input: 3, output: 1, cacheRead: 0 });
    expect(spending.status()).toEqual({ settings: spending.settings, tokens: 14, cost: 0, reachedAt: clock.now });
    expect(logger.lines.filter(([, line]) => line.includes("reached"))).toEqual([["warn", "[p] daily budget reached (10 of 10 tokens today, UTC): waking only for direct mentions until the next UTC day"]]);

    clock.now = day + 24 * 3600_000;
    expect(spending.reached).toBe(false);
    expect(spending.status().tokens).toBe(0);
    expect(logger.lines.at(-1)).toEqual(["info", "[p] daily budget: a new UTC day, limits lifted"]);
  });

  it("a cost limit counts priced models only; whenReached: group names the group as the profile's model", () => {
    const clock = { now: day };
    const { budget: spending } = budget({ dailyCost: 0.002, whenReached: "group", group: "cheap" }, clock);
    spending.record("r:free", { input: 1_000_000, output: 0, cacheRead: 0 });
    expect(spending.modelFor("r:priced")).toBe("r:priced");
    spending.record("r:priced", { input: 1, output: 1, cacheRead: 0 });
    expect(spending.modelFor("r:priced")).toBe("cheap");
  });

  it("seeding counts only calls of the current UTC day", () => {
    const clock = { now: day + 3600_000 };
    const { budget: spending } = budget({ dailyTokens: 100 }, clock);
    const item = (at: number, input: number) => ({ at, profile: "p", channel: "main", model: "r:m", purpose: "turn", counts: { input, output: 0, cacheRead: 0 } });
    spending.seed([item(day - 1, 50), item(day, 7), item(day + 10, 3)]);
    expect(spending.status().tokens).toBe(10);
  });
});
