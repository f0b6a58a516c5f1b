import type { AgentEntry } from "@yesimagent/core";
import type { WakeupEngineInstance } from "./wakeup-engine-instance.js";

/**
 * Something that keeps what it needs from every entry of the stream itself, so the agent may hold only a tail
 * (issue 19): fed each entry once, in order, as the stream is read and appended to, and saved with the history
 * checkpoint beside `events.jsonl`.
 */
export interface HistoryObserver {
  observe(entry: AgentEntry): void;
  /** The stream was cleared, or a checkpoint did not fit: nothing observed. */
  clear(): void;
  /** What it kept, JSON-serialisable, for the history checkpoint. */
  save(): unknown;
  /** Takes back what `save` returned; false when it is not one. */
  restore(saved: unknown): boolean;
}

/**
 * A wakeup engine instance that seeds its state from the history (the judge's windows) may offer an observer
 * under this symbol, so the seed's `WakeupEngineInstance` stays as printed. The runtime calls it once, before
 * the agent's first read and only when the agent's history is observed (a retaining context engine); the
 * instance then no longer reads the stream itself at `attach`.
 */
export const wakeupHistory: unique symbol = Symbol.for("ishiki.wakeup.history");

export interface ObservingWakeup extends WakeupEngineInstance {
  [wakeupHistory](): HistoryObserver;
}

/** Switches an observing instance to observed history and returns its observer; undefined for any other. */
export function wakeupObserverOf(instance: WakeupEngineInstance): HistoryObserver | undefined {
  const method = (instance as Partial<ObservingWakeup>)[wakeupHistory];
  return typeof method === "function" ? method.call(instance) : undefined;
}
