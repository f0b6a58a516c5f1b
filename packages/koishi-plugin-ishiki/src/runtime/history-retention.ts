import type { AgentEntry, HistoryRetention } from "@yesimagent/core";
import { retentionOf, type ContextEngineInstance } from "../engines/index.js";

/** Something that keeps what it needs from every entry itself (attachments fold, tool catalogs). */
export interface HistoryObserver {
  observe(entry: AgentEntry): void;
  clear(): void;
}

/**
 * The agent's retention (issue 19): the context engine says how far back a window may reach, and the observers
 * that need older entries take them as the stream is read. A context engine without a retention (a
 * third-party one) gets none: the agent then keeps the whole history, as every plugin did before.
 */
export function historyRetention(context: ContextEngineInstance, observers: readonly HistoryObserver[]): HistoryRetention | undefined {
  const engine = retentionOf(context);
  if (engine === undefined) return undefined;
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
  };
}
