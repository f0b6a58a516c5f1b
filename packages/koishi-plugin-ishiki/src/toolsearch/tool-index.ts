import MiniSearch from "minisearch";
import type { ToolDocument } from "./tool-document.js";
import { EXPANSION_WEIGHT, queryTerms } from "./query-terms.js";
import { STOP_WORDS } from "./stop-words.js";
import { tokenize } from "./tokenizer.js";

interface IndexedFields {
  id: string;
  name: string;
  params: string;
  description: string;
}

const ASCII = /^[\x00-\x7f]+$/;

/** Names compare by their joined identifier, so `writeFile`, `write-file` and `write_file` all name `write_file`. */
function identifierKey(text: string): string {
  // Tool names are almost always ASCII; the Unicode-aware path costs several times more per name.
  if (ASCII.test(text)) return text.toLowerCase().replace(/[^a-z0-9]+/g, "");
  return text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, "");
}

/**
 * The BM25 index over tools (spec 05 CT-23, CT-24): fields `name` (boost 3), `params` (1.5) and `description` (1),
 * OR semantics, ASCII terms of 3+ characters also as prefixes, no fuzzy matching; queries are widened by the
 * bilingual glossary at a lower weight. Adding and removing one tool touches only that tool's terms, so MCP list
 * changes stay cheap.
 */
export class ToolIndex {
  private readonly engine = new MiniSearch<IndexedFields>({
    fields: ["name", "params", "description"],
    tokenize,
    // The tokenizer already normalises and lowercases.
    processTerm: (term, field) => (field === "description" && STOP_WORDS.has(term) ? null : term),
    searchOptions: {
      boost: { name: 3, params: 1.5, description: 1 },
      bm25: { k: 1.2, b: 0.7, d: 0.5 },
      combineWith: "OR",
      prefix: (term) => term.length >= 3 && ASCII.test(term),
      fuzzy: false,
    },
  });
  private readonly documents = new Map<string, ToolDocument>();
  private readonly byKey = new Map<string, Set<string>>();

  get(name: string): ToolDocument | undefined {
    return this.documents.get(name);
  }

  get size(): number {
    return this.documents.size;
  }

  names(): IterableIterator<string> {
    return this.documents.keys();
  }

  /** Adds a tool, replacing an earlier document of the same name; an unchanged document costs nothing. */
  set(document: ToolDocument): void {
    const previous = this.documents.get(document.name);
    if (previous && sameDocument(previous, document)) return;
    if (previous) this.delete(document.name);
    this.documents.set(document.name, document);
    const key = identifierKey(document.name);
    let names = this.byKey.get(key);
    if (!names) this.byKey.set(key, (names = new Set()));
    names.add(document.name);
    this.engine.add({
      id: document.name,
      name: document.name,
      params: document.params.join(" "),
      description: document.description,
    });
  }

  delete(name: string): boolean {
    if (!this.documents.delete(name)) return false;
    const key = identifierKey(name);
    const names = this.byKey.get(key);
    names?.delete(name);
    if (names?.size === 0) this.byKey.delete(key);
    // `discard` is lazy (no term walk); minisearch vacuums the dead postings in the background.
    this.engine.discard(name);
    return true;
  }

  /**
   * Ranks tools for a query: tools whose name equals a query word (as an identifier) first, then by BM25 score;
   * ties break by name. `accept` limits the candidates.
   */
  query(text: string, limit: number, accept: (name: string) => boolean = () => true): string[] {
    const exact = new Set<string>();
    for (const word of text.split(/\s+/)) {
      for (const name of this.byKey.get(identifierKey(word)) ?? []) if (accept(name)) exact.add(name);
    }
    const ranked = [...exact].sort(compareNames).slice(0, limit);
    if (ranked.length === limit) return ranked;
    const { terms, expanded } = queryTerms(text);
    const hits = this.engine.search(text, {
      tokenize: () => [...terms, ...expanded],
      boostTerm: (term) => (expanded.has(term) ? EXPANSION_WEIGHT : 1),
      filter: (result) => !exact.has(result.id) && accept(result.id),
    });
    // Minisearch returns hits by descending score; only the tie group at the cut needs ordering by name.
    let end = Math.min(limit - ranked.length, hits.length);
    while (end > 0 && end < hits.length && hits[end].score === hits[end - 1].score) end++;
    const top = hits.slice(0, end).sort((a, b) => b.score - a.score || compareNames(a.id, b.id));
    return [...ranked, ...top.slice(0, limit - ranked.length).map((hit) => hit.id as string)];
  }
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sameDocument(a: ToolDocument, b: ToolDocument): boolean {
  return a.description === b.description && a.params.length === b.params.length && a.params.every((p, i) => p === b.params[i]);
}
