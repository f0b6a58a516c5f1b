import type { HistoryRetention } from "@yesimagent/core";
import { retentionOf, wakeupObserverOf, type ContextEngineInstance, type HistoryObserver, type WakeupEngineInstance } from "../engines/index.js";

/**
 * The agent's retention (issue 19): the context engine says how far back a window may reach, and the observers
 * that need older entries take them as the stream is read (attachments fold, tool catalogs, and a wakeup
 * engine's own, such as the judge's windows). A context engine without a retention (a
 * third-party one) gets none: the agent then keeps the whole history, as every plugin did before.
 *
 * It checkpoints when the engine's retention can: the engine's state and each observer's, in order. A restore
 * fits only when all of them take theirs back.
 */
export function historyRetention(context: ContextEngineInstance, wakeup: WakeupEngineInstance, others: readonly HistoryObserver[]): HistoryRetention | undefined {
  const engine = retentionOf(context);
  if (engine === undefined) return undefined;
  // Only now: a wakeup engine switched to observed history must be fed, and it is only when the context retains.
  const judge = wakeupObserverOf(wakeup);
  const observers = judge === undefined ? others : [...others, judge];
  return {
    observe(entry, position) {
      engine.observe?.(entry, position);
      for (const observer of observers) observer.observe(entry);
    },
    retainFrom: (entries, offset) => engine.retainFrom(entries, offset),
    reset() {
      engine.reset?.();
      for (const observer of observers) observer.clear();
    },
    ...(engine.save === undefined || engine.restore === undefined ? {} : checkpointing(engine.save.bind(engine), engine.restore.bind(engine), observers)),
  };
}

function checkpointing(save: () => unknown, restore: (saved: unknown) => boolean, observers: readonly HistoryObserver[]): Pick<HistoryRetention, "save" | "restore"> {
  return {
    save: () => ({ engine: save(), observers: observers.map((observer) => observer.save()) }),
    restore(saved) {
      const { engine, observers: kept } = (saved ?? {}) as { engine?: unknown; observers?: unknown };
      if (!Array.isArray(kept) || kept.length !== observers.length || !restore(engine)) return false;
      return observers.every((observer, index) => observer.restore(kept[index]));
    },
  };
}
