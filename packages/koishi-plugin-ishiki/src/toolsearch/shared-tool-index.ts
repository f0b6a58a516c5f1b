import type { ToolSet } from "ai";
import { describesTool, type ToolDocument } from "./tool-document.js";
import { ToolIndex } from "./tool-index.js";

/**
 * One index over one document set, shared by every runtime whose deferred pool is exactly that set. Read-only
 * for its holders: only {@link ToolIndexRegistry.update} changes it, and only while one holder has it.
 */
export interface SharedToolIndex {
  readonly index: ToolIndex;
}

interface Held extends SharedToolIndex {
  bucket: string;
  refs: number;
}

/**
 * The bucket a document set's indexes are filed under: its size and its first and last tool names. Order
 * independent and linear (no sort, no hashing of descriptions); {@link holdsExactly} tells sets in one bucket apart.
 */
function bucketKey(names: readonly string[]): string {
  let first = "";
  let last = "";
  for (const name of names) {
    if (first === "" || name < first) first = name;
    if (name > last) last = name;
  }
  return `${names.length}\n${first}\n${last}`;
}

/** Whether `index` holds exactly `documents` (same names, descriptions and parameter names). */
function holdsExactly(index: ToolIndex, documents: readonly ToolDocument[]): boolean {
  if (index.size !== documents.length) return false;
  for (const document of documents) {
    const held = index.get(document.name);
    if (!held || held.description !== document.description || held.params.length !== document.params.length) return false;
    for (let i = 0; i < held.params.length; i++) if (held.params[i] !== document.params[i]) return false;
  }
  return true;
}

/** Whether `index` holds exactly the documents `tools` read as, checked without building them. */
function describesExactly(index: ToolIndex, names: readonly string[], tools: ToolSet): boolean {
  if (index.size !== names.length) return false;
  for (const name of names) {
    const held = index.get(name);
    if (!held || !describesTool(held, tools[name])) return false;
  }
  return true;
}

/**
 * The process's tool indexes, one per distinct document set, reference-counted (issue 19): a thousand channels
 * of one profile share one index instead of building a thousand identical ones. Sets are told apart by their
 * content: filed by size and first and last tool name, then compared field by field (cheaper than hashing every description at every
 * runtime's creation). A holder that alone has its index updates it in place (an MCP list change touches only
 * the changed tools); a shared one is never mutated, the holder moves to the index of its new set instead,
 * built if no runtime has it yet. The last holder's release drops the index.
 */
export class ToolIndexRegistry {
  private readonly buckets = new Map<string, Held[]>();

  /** Number of live indexes (for tests and benchmarks). */
  get size(): number {
    let size = 0;
    for (const bucket of this.buckets.values()) size += bucket.length;
    return size;
  }

  /**
   * The index that already holds exactly what the tools `names` of `tools` read as, for a holder that had `previous`
   * (or nothing), or `undefined` when none does. This is a runtime's usual case: its tools are its own objects
   * but their content is that of every other runtime of the profile, so it checks them against the shared
   * documents instead of building its own (issue 19). The holder's reference to `previous` is given up when it
   * moves.
   */
  share(previous: SharedToolIndex | undefined, names: readonly string[], tools: ToolSet): SharedToolIndex | undefined {
    const bucket = bucketKey(names);
    const own = previous && this.find(previous);
    if (own && own.bucket === bucket && describesExactly(own.index, names, tools)) return own;
    const existing = this.buckets.get(bucket)?.find((held) => held !== own && describesExactly(held.index, names, tools));
    if (!existing) return undefined;
    existing.refs++;
    if (own) this.release(own);
    return existing;
  }

  /**
   * The index of `documents` for a holder that had `previous` (or nothing): `previous` itself when the set is
   * unchanged; the holder's reference to `previous` is given up otherwise.
   */
  update(previous: SharedToolIndex | undefined, documents: readonly ToolDocument[]): SharedToolIndex {
    const bucket = bucketKey(documents.map((document) => document.name));
    const own = previous && this.find(previous);
    if (own && own.bucket === bucket && holdsExactly(own.index, documents)) return own;
    const existing = this.buckets.get(bucket)?.find((held) => held !== own && holdsExactly(held.index, documents));
    if (existing) {
      existing.refs++;
      if (own) this.release(own);
      return existing;
    }
    if (own && own.refs === 1) {
      // Sole holder: change the index in place and file it under its new bucket.
      const live = new Set(documents.map((document) => document.name));
      for (const name of [...own.index.names()]) if (!live.has(name)) own.index.delete(name);
      for (const document of documents) own.index.set(document);
      this.unfile(own);
      own.bucket = bucket;
      this.file(own);
      return own;
    }
    const index = new ToolIndex();
    for (const document of documents) index.set(document);
    const created: Held = { bucket, index, refs: 1 };
    this.file(created);
    if (own) this.release(own);
    return created;
  }

  /** Gives up one reference; the index goes with the last one. Releasing twice is the caller's bug, and ignored. */
  release(shared: SharedToolIndex): void {
    const held = this.find(shared);
    if (!held) return;
    held.refs--;
    if (held.refs === 0) this.unfile(held);
  }

  private find(shared: SharedToolIndex): Held | undefined {
    const bucket = (shared as Partial<Held>).bucket;
    return bucket === undefined ? undefined : this.buckets.get(bucket)?.find((held) => held === shared);
  }

  private file(held: Held): void {
    const bucket = this.buckets.get(held.bucket);
    if (bucket) bucket.push(held);
    else this.buckets.set(held.bucket, [held]);
  }

  private unfile(held: Held): void {
    const bucket = this.buckets.get(held.bucket);
    if (!bucket) return;
    const rest = bucket.filter((other) => other !== held);
    if (rest.length > 0) this.buckets.set(held.bucket, rest);
    else this.buckets.delete(held.bucket);
  }
}

/** The registry every runtime of the process uses. */
export const sharedToolIndexes = new ToolIndexRegistry();
