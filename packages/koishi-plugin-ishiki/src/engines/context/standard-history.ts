import type { AgentEntry } from "@yesimagent/core";
import { entryChars } from "./standard-measure.js";

/**
 * An incremental index over the agent's live, append-only history (spec 06 EN-13, EN-14, EN-17): chars as
 * prefix sums, turn boundaries, entry positions and the latest `ishiki.compact`. Each step indexes only the
 * entries appended since the previous one, so a step costs the same at any history size; a different array
 * (after `clear()`, or a storage read) is indexed from scratch.
 */
export class HistoryIndex {
  private source: readonly AgentEntry[] | undefined;
  /** `prefix[i]` = chars of entries `[0, i)`. */
  private prefix: number[] = [0];
  /** Where a turn's part of the history begins, ascending; index 0 is implied. */
  private boundaries: number[] = [];
  private positions = new Map<string, number>();
  private anchor = -1;
  private turnOpen = false;
  private turnEnded = false;

  /** Indexes `entries[0, length)`; call before any query on them. */
  public update(entries: readonly AgentEntry[], length = entries.length): void {
    if (entries !== this.source || length < this.indexed) this.reset(entries);
    for (let index = this.indexed; index < length; index += 1) this.add(entries[index], index);
  }

  public get indexed(): number {
    return this.prefix.length - 1;
  }

  public chars(from: number, to: number): number {
    return this.prefix[to] - this.prefix[from];
  }

  /** The turn boundaries strictly inside `(from, to)`, ascending. */
  public boundariesWithin(from: number, to: number): number[] {
    return this.boundaries.slice(upperBound(this.boundaries, from), lowerBound(this.boundaries, to));
  }

  public positionOf(id: string): number | undefined {
    return this.positions.get(id);
  }

  /** The position of the latest `ishiki.compact` entry, or -1. */
  public latestAnchor(): number {
    return this.anchor;
  }

  private reset(entries: readonly AgentEntry[]): void {
    this.source = entries;
    this.prefix = [0];
    this.boundaries = [];
    this.positions = new Map();
    this.anchor = -1;
    this.turnOpen = false;
    this.turnEnded = false;
  }

  /**
   * A turn's part starts after the previous turn's terminal event, so the facts that woke it stay with it;
   * a `turn.start` while another turn is still open (its end never written) starts a part of its own.
   */
  private add(entry: AgentEntry, index: number): void {
    this.prefix.push(this.prefix[index] + entryChars(entry));
    this.positions.set(entry.id, index);
    if (entry.type === "ishiki.compact") this.anchor = index;
    if (this.turnEnded && index > 0) {
      this.boundaries.push(index);
      this.turnEnded = false;
    }
    if (entry.type !== "event") return;
    if (entry.data.type === "turn.start") {
      if (this.turnOpen && this.boundaries.at(-1) !== index && index > 0) this.boundaries.push(index);
      this.turnOpen = true;
    } else {
      this.turnOpen = false;
      this.turnEnded = true;
    }
  }
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

function upperBound(values: readonly number[], target: number): number {
  return lowerBound(values, target + 1);
}
