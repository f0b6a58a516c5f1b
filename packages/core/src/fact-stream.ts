import type { AgentEntry } from "./entry.js";
import type { HistoryRetention } from "./history-retention.js";
import type { AgentStorage } from "./storage.js";

/** An entry with its position in the agent's stream (AG-34). */
export interface StoredEntry {
  entry: AgentEntry;
  seq: number;
}

export interface FactStreamOptions {
  storage: AgentStorage;
  /** The plugins' `onAppend` pipe, applied to agent-driven appends only. */
  onAppend(entries: AgentEntry[]): Promise<AgentEntry[]>;
  /** Called after each agent-driven append succeeded, one call at a time in append order. */
  notify(stored: StoredEntry[]): Promise<void>;
  /** Absent: every entry stays in memory. */
  retention?: HistoryRetention;
}

/** The tail is trimmed once it holds this many entries beyond what was kept at the last trim (and at least double). */
const TRIM_SLACK = 1024;

/**
 * The agent's in-memory history over its storage (AG-9, AG-11). Storage is read once; afterwards every
 * write goes through one queue, so appends and clears land in call order and a failed one does not block the
 * next. Memory changes only after the storage write succeeded, so it never holds an entry the file lacks.
 *
 * With a retention, the read is streamed and memory holds the tail from `offset` on: the array is trimmed by
 * replacing it (never in place), so a step that took a snapshot keeps a consistent view. The trim runs when
 * the tail doubled since the last one, so its cost per entry stays constant.
 */
export class FactStream {
  private entries: AgentEntry[] = [];
  /** The stream position of `entries[0]`. */
  private offset = 0;
  private nextTrim = TRIM_SLACK;
  private latestState: AgentEntry<"state"> | undefined;
  private nextSeq = 1;
  private loading: Promise<void> | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private notifyTail: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: FactStreamOptions) {}

  /** Reads storage into memory once; concurrent callers share the read, and a failed read is retried next time. */
  load(): Promise<void> {
    this.loading ??= this.readAll().then(
      () => {
        this.nextSeq += this.offset + this.entries.length;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  private async readAll(): Promise<void> {
    const { storage, retention } = this.options;
    if (retention === undefined || storage.scan === undefined) {
      const entries = await storage.read();
      // Our own array: a storage may hand out its internal one, and history is appended to in place.
      this.entries = entries.slice();
      for (const entry of entries) if (entry.type === "state") this.latestState = entry as AgentEntry<"state">;
      if (retention) entries.forEach((entry, position) => retention.observe(entry, position));
      this.trim();
      return;
    }
    await storage.scan((entry) => this.take(entry));
    this.trim();
  }

  /** One entry joins the history: observed at its position, kept in the tail. */
  private take(entry: AgentEntry): void {
    const position = this.offset + this.entries.length;
    if (entry.type === "state") this.latestState = entry as AgentEntry<"state">;
    this.options.retention?.observe(entry, position);
    this.entries.push(entry);
    if (this.entries.length >= this.nextTrim) this.trim();
  }

  private trim(): void {
    const { retention } = this.options;
    if (retention === undefined) return;
    const end = this.offset + this.entries.length;
    const from = Math.min(end, Math.max(this.offset, Math.floor(retention.retainFrom(this.entries, this.offset))));
    if (from > this.offset) {
      this.entries = this.entries.slice(from - this.offset);
      this.offset = from;
    }
    this.nextTrim = Math.max(TRIM_SLACK, 2 * this.entries.length);
  }

  /**
   * Appends `entries` in one storage write, in queue order. Agent-driven writes (`hooks`) pass `onAppend`
   * first and resolve only after `notify` ran for them; direct writes skip both (AG-11).
   */
  append(entries: AgentEntry[], hooks: boolean): Promise<StoredEntry[]> {
    const written = this.enqueue(async () => {
      await this.load();
      const final = hooks ? await this.options.onAppend(entries) : entries;
      if (final.length === 0) return [];
      await this.options.storage.append(...final);
      const stored = final.map((entry, index) => ({ entry, seq: this.nextSeq + index }));
      if (this.options.retention) for (const entry of final) this.take(entry);
      else {
        this.entries.push(...final);
        for (const entry of final) if (entry.type === "state") this.latestState = entry as AgentEntry<"state">;
      }
      this.nextSeq += final.length;
      return stored;
    });
    if (!hooks) return written;
    return written.then((stored) => this.afterNotify(stored));
  }

  clear(): Promise<void> {
    return this.enqueue(async () => {
      await this.options.storage.clear();
      this.loading = Promise.resolve();
      this.entries = [];
      this.offset = 0;
      this.nextTrim = TRIM_SLACK;
      this.latestState = undefined;
      this.options.retention?.reset?.();
    });
  }

  /** The storage's own view, after every write issued before this call (AG-11). */
  read(): Promise<AgentEntry[]> {
    return this.tail.then(() => this.options.storage.read());
  }

  /** The storage's own view streamed, after every write issued before this call; undefined without `scan`. */
  scan(): ((visit: (entry: AgentEntry) => void) => Promise<void>) | undefined {
    const { storage } = this.options;
    if (storage.scan === undefined) return undefined;
    return (visit) => this.tail.then(() => storage.scan!(visit));
  }

  /**
   * The history a step reads, with the highest `seq` in it (AG-34). `entries` is the live, append-only array
   * (copying it every step would make each step cost grow with the history); entries past `length` were
   * appended after the snapshot and belong to no view taken here. `offset` is the stream position of
   * `entries[0]` (0 unless a retention dropped older entries).
   */
  snapshot(): { entries: readonly AgentEntry[]; length: number; seenSeq: number; offset: number } {
    return { entries: this.entries, length: this.entries.length, seenSeq: this.nextSeq - 1, offset: this.offset };
  }

  /** The latest `state` entry of the whole stream, kept even when the retention dropped it from the tail. */
  lastState(): AgentEntry<"state"> | undefined {
    return this.latestState;
  }

  get size(): number {
    return this.entries.length;
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(operation);
    this.tail = result.catch(() => undefined);
    return result;
  }

  private afterNotify(stored: StoredEntry[]): Promise<StoredEntry[]> {
    const result = this.notifyTail.then(() => this.options.notify(stored)).then(() => stored);
    this.notifyTail = result.catch(() => undefined);
    return result;
  }
}
