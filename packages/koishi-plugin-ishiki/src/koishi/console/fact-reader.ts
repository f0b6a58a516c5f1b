import { stat } from "node:fs/promises";
import { createJsonlStorage, type AgentEntry } from "@yesimagent/core";
import { ishikiEntryChecks } from "../../types/index.js";

/** Which entries of a stream to keep: a range of 0-based positions, or the last `last` of them. */
export type FactRange = { from: number; to: number } | { last: number };

/** The entries a range kept, the position of the first of them, and how many the stream holds. */
export interface FactSlice {
  entries: AgentEntry[];
  from: number;
  total: number;
}

const KEPT_SLICES = 16;

/**
 * Read-only access to the events.jsonl files the page shows, through the kernel's own jsonl storage (never a
 * second parser): only `scan()` is ever called, so nothing here can change a stream. A stream is streamed, never
 * held whole: a channel's history may be far larger than memory should hold (issue 19), so a read keeps only the
 * range asked for. The last slices are kept per file version (size and mtime), so a page polling an unchanged
 * stream reads nothing again. A torn final line (an append in flight) is left out by the reader and appears at
 * the next read. The reader's reports stay silent here: the runtime that owns the stream reports its damage.
 */
export class FactReader {
  private readonly slices = new Map<string, FactSlice>();

  /** Every readable fact of the stream at `path`, one at a time, in order; none when the file does not exist. */
  public async scan(path: string, visit: (entry: AgentEntry) => void): Promise<void> {
    if ((await this.version(path)) === undefined) return;
    await createJsonlStorage(path, { checks: ishikiEntryChecks }).scan!(visit);
  }

  /** The entries of `range` in the stream at `path`, read in one pass that keeps only them. */
  public async slice(path: string, range: FactRange): Promise<FactSlice> {
    const version = await this.version(path);
    if (version === undefined) return { entries: [], from: 0, total: 0 };
    const key = `${path}\n${version}\n${JSON.stringify(range)}`;
    const kept = this.slices.get(key);
    if (kept !== undefined) return kept;
    let total = 0;
    let entries: AgentEntry[] = [];
    let dropped = 0;
    await this.scan(path, (entry) => {
      if ("last" in range) {
        entries.push(entry);
        // Trimmed when it doubled, so keeping the tail costs O(1) per entry.
        if (entries.length >= 2 * Math.max(1, range.last)) {
          dropped += entries.length - range.last;
          entries = entries.slice(-range.last);
        }
      } else if (total >= range.from && total < range.to) entries.push(entry);
      total += 1;
    });
    if ("last" in range && entries.length > range.last) {
      dropped += entries.length - range.last;
      entries = entries.slice(-range.last);
    }
    const slice = { entries, from: "last" in range ? dropped : Math.min(range.from, total), total };
    this.slices.set(key, slice);
    for (const old of this.slices.keys()) {
      if (this.slices.size <= KEPT_SLICES) break;
      this.slices.delete(old);
    }
    return slice;
  }

  /** Size and mtime of the stream at `path`, the key under which what was read of it stays valid. */
  public async version(path: string): Promise<string | undefined> {
    const info = await stat(path).catch(() => undefined);
    return info === undefined ? undefined : `${info.size}:${info.mtimeMs}`;
  }
}
