import type { AgentEntry } from "./entry.js";
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
}

/**
 * The agent's in-memory history over its storage (AG-9, AG-11). Storage is read once; afterwards every
 * write goes through one queue, so appends and clears land in call order and a failed one does not block the
 * next. Memory changes only after the storage write succeeded, so it never holds an entry the file lacks.
 */
export class FactStream {
  private entries: AgentEntry[] = [];
  private nextSeq = 1;
  private loading: Promise<void> | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private notifyTail: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: FactStreamOptions) {}

  /** Reads storage into memory once; concurrent callers share the read, and a failed read is retried next time. */
  load(): Promise<void> {
    this.loading ??= this.options.storage.read().then(
      (entries) => {
        // Our own array: a storage may hand out its internal one, and history is appended to in place.
        this.entries = entries.slice();
        this.nextSeq += entries.length;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
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
      this.entries.push(...final);
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
    });
  }

  /** The storage's own view, after every write issued before this call (AG-11). */
  read(): Promise<AgentEntry[]> {
    return this.tail.then(() => this.options.storage.read());
  }

  /**
   * The history a step reads, with the highest `seq` in it (AG-34). `entries` is the live, append-only array
   * (copying it every step would make each step cost grow with the history); entries past `length` were
   * appended after the snapshot and belong to no view taken here.
   */
  snapshot(): { entries: readonly AgentEntry[]; length: number; seenSeq: number } {
    return { entries: this.entries, length: this.entries.length, seenSeq: this.nextSeq - 1 };
  }

  findLast<T extends AgentEntry["type"]>(type: T): Extract<AgentEntry, { type: T }> | undefined {
    for (let index = this.entries.length - 1; index >= 0; index -= 1) {
      const entry = this.entries[index];
      if (entry.type === type) return entry as Extract<AgentEntry, { type: T }>;
    }
    return undefined;
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
