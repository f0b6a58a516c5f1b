import type { HistoryIndex } from "./standard-history.js";
import type { WindowBudget } from "./standard-token-model.js";

export interface WindowPlan {
  /** The first entry the window keeps. */
  start: number;
  /** The window after the anchor did not fit the ceiling. */
  over: boolean;
  /** Over the ceiling, yet no turn boundary to cut at: everything passes. */
  uncut: boolean;
}

/**
 * The per-step cut (spec 06 EN-14) of `[from, end)` plus `extra` chars (the summary message): under the ceiling
 * everything passes; over it, the window starts at a turn boundary: the newest turn always, older whole turns
 * added while the total stays under the ceiling and until it passes the target. Cutting only between turns
 * keeps every tool call with its result.
 */
export function planWindow(history: HistoryIndex, from: number, end: number, extra: number, budget: WindowBudget): WindowPlan {
  if (history.chars(from, end) + extra <= budget.ceiling) return { start: from, over: false, uncut: false };
  const boundaries = history.boundariesWithin(from, end);
  if (boundaries.length === 0) return { start: from, over: true, uncut: true };
  let index = boundaries.length - 1;
  let kept = history.chars(boundaries[index], end) + extra;
  while (index > 0 && kept <= budget.target) {
    const wider = history.chars(boundaries[index - 1], end) + extra;
    if (wider > budget.ceiling) break;
    index -= 1;
    kept = wider;
  }
  return { start: boundaries[index], over: true, uncut: false };
}
