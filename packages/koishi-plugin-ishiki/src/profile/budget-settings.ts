/**
 * A profile's daily budget (issue 22): limits per UTC day over every model call of the profile (turn steps and
 * side requests), and what happens once one is reached. `0` means no limit of that kind.
 */
export interface BudgetSettings {
  /** Input plus output tokens per UTC day. */
  dailyTokens: number;
  /** Estimated cost per UTC day, from the prices the model entries declare. */
  dailyCost: number;
  /** `mentions`: wakeup engines wake only for direct mentions (private chat, @bot, a quote of the bot); `group`: the profile switches to `group`. */
  whenReached: "mentions" | "group";
  /** The cheaper model group (or reference) used while the budget is reached with `whenReached: group`. */
  group?: string;
}

export const BUDGET_BEHAVIOURS = ["mentions", "group"] as const;

/** `budget` as written, checked; undefined when no limit is set. Throws `budget.<key>: <reason>`. */
export function resolveBudget(value: unknown): BudgetSettings | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw new Error("budget: expected an object");
  const input = value as Record<string, unknown>;
  const limit = (key: "dailyTokens" | "dailyCost"): number => {
    const amount = input[key] ?? 0;
    if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0) throw new Error(`budget.${key}: expected a number ≥ 0`);
    return amount;
  };
  const whenReached = input.whenReached ?? "mentions";
  if (!BUDGET_BEHAVIOURS.includes(whenReached as BudgetSettings["whenReached"])) throw new Error(`budget.whenReached: expected ${BUDGET_BEHAVIOURS.join(" or ")}`);
  const settings: BudgetSettings = { dailyTokens: limit("dailyTokens"), dailyCost: limit("dailyCost"), whenReached: whenReached as BudgetSettings["whenReached"] };
  if (settings.whenReached === "group") {
    if (typeof input.group !== "string" || input.group.trim() === "") throw new Error("budget.group: required with whenReached: group");
    settings.group = input.group;
  }
  if (settings.dailyTokens === 0 && settings.dailyCost === 0) return undefined;
  return settings;
}
