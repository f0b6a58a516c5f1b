import { createHash } from "node:crypto";
import type { ToolDocument } from "./tool-document.js";
import { ToolIndex } from "./tool-index.js";

/**
 * One index over one document set, shared by every runtime whose deferred pool is exactly that set. Read-only
 * for its holders: only {@link ToolIndexRegistry.update} changes it, and only while one holder has it.
 */
export interface SharedToolIndex {
  /** sha256 of the document set: names, descriptions and parameter names, in name order. */
  readonly key: string;
  readonly index: ToolIndex;
}

interface Held extends SharedToolIndex {
  key: string;
  refs: number;
}

/** The identity of a document set: equal content gives an equal key, whatever the tool objects or their order. */
export function documentSetKey(documents: readonly ToolDocument[]): string {
  const hash = createHash("sha256");
  for (const document of [...documents].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    hash.update(JSON.stringify([document.name, document.description, document.params]));
    hash.update("\n");
  }
  return hash.digest("hex");
}

/**
 * The process's tool indexes, one per distinct document set, reference-counted (issue 19): a thousand channels
 * of one profile share one index instead of building a thousand identical ones. A holder that alone has its
 * index updates it in place (an MCP list change touches only the changed tools); a shared one is never
 * mutated, the holder moves to the index of its new set instead, built if no runtime has it yet. The last
 * holder's release drops the index.
 */
export class ToolIndexRegistry {
  private readonly held = new Map<string, Held>();

  /** Number of live indexes (for tests and benchmarks). */
  get size(): number {
    return this.held.size;
  }

  /**
   * The index of `documents` for a holder that had `previous` (or nothing): `previous` itself when the set is
   * unchanged; the holder's reference to `previous` is given up otherwise.
   */
  update(previous: SharedToolIndex | undefined, documents: readonly ToolDocument[]): SharedToolIndex {
    const key = documentSetKey(documents);
    if (previous?.key === key) return previous;
    const existing = this.held.get(key);
    if (existing) {
      existing.refs++;
      if (previous) this.release(previous);
      return existing;
    }
    const own = previous && this.held.get(previous.key);
    if (own === previous && own && own.refs === 1) {
      // Sole holder: change the index in place and file it under its new key.
      const live = new Set(documents.map((document) => document.name));
      for (const name of [...own.index.names()]) if (!live.has(name)) own.index.delete(name);
      for (const document of documents) own.index.set(document);
      this.held.delete(own.key);
      own.key = key;
      this.held.set(key, own);
      return own;
    }
    const index = new ToolIndex();
    for (const document of documents) index.set(document);
    const created: Held = { key, index, refs: 1 };
    this.held.set(key, created);
    if (previous) this.release(previous);
    return created;
  }

  /** Gives up one reference; the index goes with the last one. Releasing twice is the caller's bug, and ignored. */
  release(shared: SharedToolIndex): void {
    const held = this.held.get(shared.key);
    if (held !== shared) return;
    held.refs--;
    if (held.refs === 0) this.held.delete(held.key);
  }
}

/** The registry every runtime of the process uses. */
export const sharedToolIndexes = new ToolIndexRegistry();
