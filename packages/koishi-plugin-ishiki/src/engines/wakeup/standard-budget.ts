import type { Agent } from "@yesimagent/core";
import type { WakeupEnvironment } from "../wakeup-environment.js";

const HOUR_MS = 3_600_000;

export interface TurnBudgetOptions {
  cooldownMs: number;
  maxTurnsPerHour: number;
  now(): number;
  setTimer: WakeupEnvironment["setTimer"];
  debug(message: string): void;
  onError(error: unknown): void;
}

/** What `open` did: opened a turn, dropped the wake at the hourly cap, or postponed it by the cooldown. */
export type BudgetOutcome = { kind: "opened" } | { kind: "cap"; limit: number } | { kind: "cooldown"; waitMs: number };

/**
 * The turns the standard engine opens itself (spec 06 EN-28): at most `maxTurnsPerHour` in any rolling hour (hits
 * over it are dropped) and `cooldownMs` between two of them (a hit inside it is postponed to its end through
 * `retry`). Explicit wakes and `wait` never pass through here, so they neither count nor wait.
 */
export class TurnBudget {
  private readonly opened: number[] = [];
  private postponed: (() => void) | undefined;

  public constructor(
    private readonly agent: Agent,
    private readonly options: TurnBudgetOptions,
    private readonly retry: () => void,
  ) {}

  /** Opens a turn unless the cap drops the wake or the cooldown postpones it. */
  public open(): BudgetOutcome {
    const { cooldownMs, maxTurnsPerHour, now, debug, onError } = this.options;
    const at = now();
    while (this.opened.length > 0 && this.opened[0] <= at - HOUR_MS) this.opened.shift();
    if (maxTurnsPerHour > 0 && this.opened.length >= maxTurnsPerHour) {
      debug(`wake dropped: ${maxTurnsPerHour} turns in the last hour`);
      return { kind: "cap", limit: maxTurnsPerHour };
    }
    const last = this.opened.at(-1);
    if (cooldownMs > 0 && last !== undefined && at - last < cooldownMs) {
      const waitMs = last + cooldownMs - at;
      if (this.postponed === undefined) {
        debug(`wake postponed by the cooldown for ${waitMs} ms`);
        this.postponed = this.options.setTimer(waitMs, () => {
          this.postponed = undefined;
          this.retry();
        }, onError);
      }
      return { kind: "cooldown", waitMs };
    }
    if (this.agent.continue() !== undefined) this.opened.push(at);
    return { kind: "opened" };
  }

  /** Whether a wake waits for the cooldown to end. */
  public get postponing(): boolean {
    return this.postponed !== undefined;
  }

  public dispose(): void {
    this.postponed?.();
    this.postponed = undefined;
  }
}
