import type { AgentEntry } from "@yesimagent/core";
import { entryChars } from "./standard-measure.js";

/**
 * An incremental index over the agent's append-only history (spec 06 EN-13, EN-14, EN-17), by stream
 * position: chars as prefix sums, cut points, entry positions and the latest `ishiki.compact`. Fed either by
 * `update` (the live array a step receives; a different array, after `clear()` or a storage read, is indexed
 * from scratch) or entry by entry through `add` when the runtime's retention observes the stream; `forget`
 * then drops what lies below the retained tail, so the index grows with the window, not with the file.
 */
export class HistoryIndex {
  private source: readonly AgentEntry[] | undefined;
  /** The position `prefix[0]` stands for; nothing below it is indexed any more. */
  private base = 0;
  /** `prefix[i]` = chars of entries `[base, base + i)` plus what was forgotten below `base`. */
  private prefix: number[] = [0];
  /** Positions the window may start at, ascending (0 is implied). */
  private cuts: number[] = [];
  /** Entry id → position, for the entries from `base - 1` on (the one before a cut is what an anchor names). */
  private positions = new Map<string, number>();
  private anchor: { position: number; entry: AgentEntry<"ishiki.compact"> } | undefined;
  private turnOpen = false;

  /** Indexes `entries[0, length)`; call before any query on them. */
  public update(entries: readonly AgentEntry[], length = entries.length): void {
    if (entries !== this.source || length < this.end) this.reset(entries);
    for (let index = this.end; index < length; index += 1) this.add(entries[index], index);
  }

  /** The position after the last indexed entry. */
  public get end(): number {
    return this.base + this.prefix.length - 1;
  }

  /** The lowest position still indexed. */
  public get floor(): number {
    return this.base;
  }

  /** Chars of `[from, to)`; a `from` below the floor counts from the floor. */
  public chars(from: number, to: number): number {
    return this.prefix[to - this.base] - this.prefix[Math.max(from, this.base) - this.base];
  }

  /** How many cut points lie strictly inside `(from, to)`, and the k-th of them (ascending). */
  public cutsWithin(from: number, to: number): { first: number; count: number } {
    const first = lowerBound(this.cuts, from + 1);
    return { first, count: lowerBound(this.cuts, to) - first };
  }

  public cutAt(index: number): number {
    return this.cuts[index];
  }

  public positionOf(id: string): number | undefined {
    return this.positions.get(id);
  }

  /** The latest `ishiki.compact` entry with its position, kept even once the entry left the retained tail. */
  public latestAnchor(): { position: number; entry: AgentEntry<"ishiki.compact"> } | undefined {
    return this.anchor;
  }

  /**
   * Indexes the entry at `position` (the next one). The window may start after a turn's terminal event, at a
   * `turn.start` while another turn is still open (its end never written), and (decided here, EN-14) at any
   * entry outside a turn: facts that never woke the bot carry no call/result pairs to split.
   */
  public add(entry: AgentEntry, position: number): void {
    this.prefix.push(this.prefix[position - this.base] + entryChars(entry));
    this.positions.set(entry.id, position);
    if (entry.type === "ishiki.compact") this.anchor = { position, entry: entry as AgentEntry<"ishiki.compact"> };
    const starts = entry.type === "event" && entry.data.type === "turn.start";
    if (position > 0 && (!this.turnOpen || starts) && this.cuts.at(-1) !== position) this.cuts.push(position);
    if (entry.type !== "event") return;
    this.turnOpen = starts;
  }

  /** Drops what lies below `position` (kept: the id of the entry just before it). */
  public forget(position: number): void {
    const below = Math.min(position, this.end);
    if (below <= this.base) return;
    this.prefix = this.prefix.slice(below - this.base);
    this.base = below;
    this.cuts = this.cuts.slice(lowerBound(this.cuts, below));
    // Insertion order is stream order: the oldest ids come first.
    for (const [id, at] of this.positions) {
      if (at >= below - 1) break;
      this.positions.delete(id);
    }
  }

  /** What `add` built, for a history checkpoint (issue 19). */
  public save(): SavedHistoryIndex {
    return { base: this.base, prefix: this.prefix, cuts: this.cuts, positions: [...this.positions], anchor: this.anchor ?? null, turnOpen: this.turnOpen };
  }

  /** Takes back what `save` returned; false (and nothing changed) when it is not one. */
  public restore(saved: unknown): boolean {
    if (!isSavedIndex(saved)) return false;
    this.reset();
    this.base = saved.base;
    this.prefix = saved.prefix;
    this.cuts = saved.cuts;
    this.positions = new Map(saved.positions);
    this.anchor = saved.anchor ?? undefined;
    this.turnOpen = saved.turnOpen;
    return true;
  }

  public reset(source?: readonly AgentEntry[]): void {
    this.source = source;
    this.base = 0;
    this.prefix = [0];
    this.cuts = [];
    this.positions = new Map();
    this.anchor = undefined;
    this.turnOpen = false;
  }
}

export interface SavedHistoryIndex {
  base: number;
  prefix: number[];
  cuts: number[];
  positions: Array<[string, number]>;
  anchor: { position: number; entry: AgentEntry<"ishiki.compact"> } | null;
  turnOpen: boolean;
}

function isSavedIndex(value: unknown): value is SavedHistoryIndex {
  if (typeof value !== "object" || value === null) return false;
  const saved = value as Partial<SavedHistoryIndex>;
  const numbers = (list: unknown): boolean => Array.isArray(list) && list.every((item) => typeof item === "number");
  return (
    Number.isSafeInteger(saved.base) &&
    numbers(saved.prefix) &&
    (saved.prefix as number[]).length > 0 &&
    numbers(saved.cuts) &&
    Array.isArray(saved.positions) &&
    typeof saved.turnOpen === "boolean" &&
    (saved.anchor === null || (typeof saved.anchor === "object" && saved.anchor !== undefined && typeof saved.anchor.position === "number"))
  );
}

function lowerBound(values: readonly number[], target: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle] < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
