import type { HistoryIndex } from "./standard-history.js";
import type { WindowBudget } from "./standard-token-model.js";

export interface WindowPlan {
  /** The first entry the window keeps. */
  start: number;
  /** The window after the anchor did not fit the ceiling. */
  over: boolean;
  /** Over the ceiling, yet nowhere to cut: everything passes. */
  uncut: boolean;
}

/**
 * The per-step cut (spec 06 EN-14) of `[from, end)` plus `extra` chars (the summary message): under the ceiling
 * everything passes; over it, the window starts at a cut point: the newest one always, older ones added while
 * the total stays under the ceiling and until it passes the target. Cut points lie between turns and between
 * entries outside any turn, so every tool call stays with its result.
 */
export function planWindow(history: HistoryIndex, from: number, end: number, extra: number, budget: WindowBudget): WindowPlan {
  if (history.chars(from, end) + extra <= budget.ceiling) return { start: from, over: false, uncut: false };
  const { first, count } = history.cutsWithin(from, end);
  if (count === 0) return { start: from, over: true, uncut: true };
  let index = first + count - 1;
  let kept = history.chars(history.cutAt(index), end) + extra;
  while (index > first && kept <= budget.target) {
    const wider = history.chars(history.cutAt(index - 1), end) + extra;
    if (wider > budget.ceiling) break;
    index -= 1;
    kept = wider;
  }
  return { start: history.cutAt(index), over: true, uncut: false };
}
