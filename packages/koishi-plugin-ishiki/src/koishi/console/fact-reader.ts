import { stat } from "node:fs/promises";
import { createJsonlStorage, type AgentEntry } from "@yesimagent/core";
import { ishikiEntryChecks } from "../../types/index.js";

/**
 * Read-only access to the events.jsonl files the page shows, through the kernel's own jsonl storage (never a
 * second parser): only `read()` is ever called, so nothing here can change a stream. A file is read again only
 * when its size or mtime moved, and the last read of each file is kept; a torn final line (an append in flight)
 * is left out by the reader and appears at the next read. The reader's reports stay silent here: the runtime
 * that owns the stream reports its damage itself.
 */
export class FactReader {
  /** The streams read last, most recent last: a few pages are open at once, and a stream can be large. */
  private readonly cache = new Map<string, { size: number; mtime: number; entries: AgentEntry[] }>();

  public constructor(private readonly keep = 4) {}

  /** Every readable fact of the stream at `path`; `[]` when the file does not exist yet. */
  public async read(path: string): Promise<AgentEntry[]> {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) return [];
    const cached = this.cache.get(path);
    this.cache.delete(path);
    if (cached && cached.size === info.size && cached.mtime === info.mtimeMs) {
      this.cache.set(path, cached);
      return cached.entries;
    }
    const entries = await createJsonlStorage(path, { checks: ishikiEntryChecks }).read();
    this.cache.set(path, { size: info.size, mtime: info.mtimeMs, entries });
    for (const key of this.cache.keys()) {
      if (this.cache.size <= this.keep) break;
      this.cache.delete(key);
    }
    return entries;
  }

  /** Size and mtime of the stream at `path`, the key under which a summary of it stays valid. */
  public async version(path: string): Promise<string | undefined> {
    const info = await stat(path).catch(() => undefined);
    return info === undefined ? undefined : `${info.size}:${info.mtimeMs}`;
  }
}
