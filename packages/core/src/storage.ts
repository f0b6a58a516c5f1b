import type { AgentEntry } from "./entry.js";

/**
 * Where an agent's fact stream lives. One runtime is the only writer of its storage (AG-10).
 *
 * - `append(...entries)` writes all entries at once or rejects; zero entries is a no-op (AG-6).
 * - `read()` returns every readable entry in append order and never refuses the stream (AG-7).
 * - `clear()` deletes the stream.
 * - `scan(visit)`, when present, streams the same entries as `read()` one at a time, so a caller that keeps
 *   only part of them never holds the whole stream (`AgentConfig.history`).
 * - `checkpoints`, when present, keeps one saved state beside the stream, so that a restart reads only what was
 *   appended after it (`AgentConfig.history`).
 * - `onReport(listener)`, when present, delivers one line per problem found while reading (a torn or corrupt
 *   line); the agent forwards them as `agent.error { source: "storage" }` (AG-8). Returns an unsubscribe.
 */
export interface AgentStorage<E = AgentEntry> {
  append(...entries: E[]): Promise<void>;
  read(): Promise<E[]>;
  clear(): Promise<void>;
  scan?(visit: (entry: E) => void): Promise<void>;
  checkpoints?: StorageCheckpoints<E>;
  onReport?(listener: (message: string) => void): () => void;
}

/**
 * State derived from a prefix of the stream, saved with where that prefix ends. The storage owns the check
 * that the stream still begins with that prefix; the state itself is opaque to it (JSON-serialisable).
 */
export interface StorageCheckpoints<E = AgentEntry> {
  /** Saves `state` as covering the stream as it stands now: after the last read or append. Replaces the previous one. */
  save(state: unknown): Promise<void>;
  /**
   * The saved state, when the stream still begins with what it covered, and `resume` to stream only the
   * entries after it (then the storage stands as after a whole read). Undefined when there is none or it no
   * longer fits the stream (the file was cleared, cut or rewritten); the storage says why in its log.
   */
  load(): Promise<{ state: unknown; resume(visit: (entry: E) => void): Promise<void> } | undefined>;
}
