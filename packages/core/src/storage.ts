import type { AgentEntry } from "./entry.js";

/**
 * Where an agent's fact stream lives. One runtime is the only writer of its storage (AG-10).
 *
 * - `append(...entries)` writes all entries at once or rejects; zero entries is a no-op (AG-6).
 * - `read()` returns every readable entry in append order and never refuses the stream (AG-7).
 * - `clear()` deletes the stream.
 * - `scan(visit)`, when present, streams the same entries as `read()` one at a time, so a caller that keeps
 *   only part of them never holds the whole stream (`AgentConfig.history`).
 * - `onReport(listener)`, when present, delivers one line per problem found while reading (a torn or corrupt
 *   line); the agent forwards them as `agent.error { source: "storage" }` (AG-8). Returns an unsubscribe.
 */
export interface AgentStorage<E = AgentEntry> {
  append(...entries: E[]): Promise<void>;
  read(): Promise<E[]>;
  clear(): Promise<void>;
  scan?(visit: (entry: E) => void): Promise<void>;
  onReport?(listener: (message: string) => void): () => void;
}
