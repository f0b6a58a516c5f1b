import type { AgentEntry } from "./entry.js";

/**
 * How much history an agent holds in memory (`AgentConfig.history`). Without it the agent keeps every entry
 * of its stream, as a plugin that reads the whole history expects. With it, the first read streams the storage
 * (`AgentStorage.scan`) and the agent keeps only the tail from `retainFrom` on: what the observers need from
 * older entries (indexes, folds, the latest catalogs) they take in `observe`, and anything else they read back
 * from disk on demand. Positions count entries from the start of the stream (0-based) and are never reused
 * until `clear()`.
 */
export interface HistoryRetention {
  /** Sees every entry once, in stream order: streamed at the first read, then after each successful append. */
  observe(entry: AgentEntry, position: number): void;
  /**
   * The lowest position every later step may still need, given the tail held now (`entries[0]` is at
   * `offset`). Asked now and then, never per entry; a value outside the tail is clamped to it.
   */
  retainFrom(entries: readonly AgentEntry[], offset: number): number;
  /** The stream was cleared: positions start again at 0. */
  reset?(): void;
}
