import type { AgentEntry } from "./entry.js";
import type { HistoryRetention } from "./history-retention.js";
import type { AgentLogger } from "./logger.js";
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
  logger: AgentLogger;
}

/** The tail is trimmed once it holds this many entries beyond what was kept at the last trim (and at least double). */
const TRIM_SLACK = 1024;
/** A checkpoint is saved after this many entries were appended since the last one (and when the agent stops). */
const CHECKPOINT_EVERY = 1000;

/** What a checkpoint holds besides the retention's own state. */
interface SavedStream {
  /** The stream position of `entries[0]`. */
  offset: number;
  entries: AgentEntry[];
  latestState: AgentEntry<"state"> | null;
  retention: unknown;
}

/**
 * The agent's in-memory history over its storage (AG-9, AG-11). Storage is read once; afterwards every
 * write goes through one queue, so appends and clears land in call order and a failed one does not block the
 * next. Memory changes only after the storage write succeeded, so it never holds an entry the file lacks.
 *
 * With a retention, the read is streamed and memory holds the tail from `offset` on: the array is trimmed by
 * replacing it (never in place), so a step that took a snapshot keeps a consistent view. The trim runs when
 * the tail doubled since the last one, so its cost per entry stays constant.
 *
 * With a retention that can `save` and a storage with `checkpoints`, the tail, the latest state and the
 * retention's state are saved beside the stream every `CHECKPOINT_EVERY` appends and at `checkpoint()` (the
 * agent's stop); the next load restores them and reads only the entries after, so a restart costs what was
 * appended since, not the whole file. A checkpoint that does not fit (the file changed, the retention's
 * settings changed) is ignored and the whole stream is read.
 */
export class FactStream {
  private entries: AgentEntry[] = [];
  /** The stream position of `entries[0]`. */
  private offset = 0;
  private nextTrim = TRIM_SLACK;
  private latestState: AgentEntry<"state"> | undefined;
  private nextSeq = 1;
  /** The stream position the last checkpoint covered (or the load started from). */
  private savedAt = 0;
  private loading: Promise<void> | undefined;
  private loaded = false;
  private tail: Promise<unknown> = Promise.resolve();
  private notifyTail: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: FactStreamOptions) {}

  /** Reads storage into memory once; concurrent callers share the read, and a failed read is retried next time. */
  load(): Promise<void> {
    this.loading ??= this.readAll().then(
      () => {
        this.nextSeq += this.offset + this.entries.length;
        this.loaded = true;
        // A long read (a file without a checkpoint, or much written after it): the next start begins here.
        if (this.end - this.savedAt >= CHECKPOINT_EVERY) void this.checkpoint();
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
    // A failed earlier read may have taken part of the stream.
    if (this.end > 0) this.forget();
    if (retention === undefined || storage.scan === undefined) {
      const entries = await storage.read();
      // Our own array: a storage may hand out its internal one, and history is appended to in place.
      this.entries = entries.slice();
      for (const entry of entries) if (entry.type === "state") this.latestState = entry as AgentEntry<"state">;
      if (retention) entries.forEach((entry, position) => retention.observe(entry, position));
      this.trim();
      return;
    }
    if (await this.resume()) return;
    await storage.scan((entry) => this.take(entry));
    this.trim();
  }

  /** Restores the saved checkpoint and reads what follows it; false when there is none that fits. */
  private async resume(): Promise<boolean> {
    const { storage, retention } = this.options;
    if (retention?.restore === undefined || storage.checkpoints === undefined) return false;
    const saved = await storage.checkpoints.load();
    if (saved === undefined) return false;
    const stream = savedStream(saved.state);
    if (stream === undefined || !restores(retention, stream.retention)) {
      this.options.logger.info("history checkpoint: it does not fit (saved under other settings, or damaged); reading the whole stream");
      this.forget();
      return false;
    }
    this.entries = stream.entries;
    this.offset = stream.offset;
    this.latestState = stream.latestState ?? undefined;
    this.savedAt = this.end;
    await saved.resume((entry) => this.take(entry));
    this.trim();
    return true;
  }

  /**
   * Saves a checkpoint of what is in memory now, in queue order, when it would make the next load cheaper:
   * the stream is long (`CHECKPOINT_EVERY` entries or more; a shorter one reads in milliseconds), something
   * was appended since the last one, and the tail is at most half the stream. A failure is logged; the stream
   * itself is unaffected.
   */
  checkpoint(): Promise<void> {
    return this.enqueue(async () => {
      const { storage, retention } = this.options;
      if (!this.loaded || retention?.save === undefined || storage.checkpoints === undefined) return;
      this.trim();
      const end = this.end;
      if (end < CHECKPOINT_EVERY || end === this.savedAt || 2 * this.entries.length > end) return;
      const saved: SavedStream = { offset: this.offset, entries: this.entries.slice(), latestState: this.latestState ?? null, retention: retention.save() };
      this.savedAt = end;
      await storage.checkpoints.save(saved);
    }).catch((error: unknown) => {
      this.options.logger.warn(`history checkpoint not saved: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private get end(): number {
    return this.offset + this.entries.length;
  }

  private forget(): void {
    this.entries = [];
    this.offset = 0;
    this.nextTrim = TRIM_SLACK;
    this.latestState = undefined;
    this.savedAt = 0;
    this.options.retention?.reset?.();
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
      if (this.options.retention) {
        for (const entry of final) this.take(entry);
        if (this.end - this.savedAt >= CHECKPOINT_EVERY) void this.checkpoint();
      } else {
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
      this.forget();
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

function savedStream(value: unknown): SavedStream | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { offset, entries, latestState } = value as Partial<SavedStream>;
  if (!Number.isSafeInteger(offset) || (offset as number) < 0 || !Array.isArray(entries) || !entries.every(isEntryLike)) return undefined;
  if (latestState !== null && (typeof latestState !== "object" || latestState?.type !== "state")) return undefined;
  return value as SavedStream;
}

function isEntryLike(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { id, type } = value as { id?: unknown; type?: unknown };
  return typeof id === "string" && typeof type === "string";
}

/** A retention that throws on a damaged saved state has not restored it either. */
function restores(retention: HistoryRetention, saved: unknown): boolean {
  try {
    return retention.restore?.(saved) === true;
  } catch {
    return false;
  }
}
