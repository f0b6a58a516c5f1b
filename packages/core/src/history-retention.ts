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
  /** The stream was cleared (or a checkpoint did not fit): positions start again at 0, nothing observed. */
  reset?(): void;
  /**
   * What `observe` built so far, as JSON-serialisable data, saved with the tail in a checkpoint beside the
   * stream (`AgentStorage.checkpoints`). With `restore`, a restart resumes from it instead of reading the
   * whole stream again.
   */
  save?(): unknown;
  /**
   * Takes back what `save` returned, as if every entry up to the checkpoint had been observed; false when it
   * does not fit (saved under other settings), and the whole stream is read instead (after `reset`).
   */
  restore?(saved: unknown): boolean;
}
