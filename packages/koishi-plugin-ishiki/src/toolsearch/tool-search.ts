import type { Tool, ToolSet } from "ai";
import { deferredToolNames, residentToolNames, resolveMaxResults, type ToolsearchOptions } from "./resident.js";
import { SEARCH_NO_MATCH_NOTE, type SearchOutput } from "./search-contract.js";
import { sharedToolIndexes, type SharedToolIndex, type ToolIndexRegistry } from "./shared-tool-index.js";
import { readToolDocument, type ToolDocument } from "./tool-document.js";

function documentOf(name: string, tool: Tool): ToolDocument | Promise<ToolDocument> {
  const document = readToolDocument(name, tool);
  if (!(document instanceof Promise)) return document;
  return document.catch((error: unknown) => {
    throw new Error(`toolsearch: cannot read the input schema of "${name}": ${error instanceof Error ? error.message : String(error)}`);
  });
}

/**
 * The deferred tool pool of one runtime and the search over it (spec 05 CT-21 .. CT-23). The runtime calls
 * `sync` with every assembled tool set and `search` from the `search` tool; which hits join the discovered set,
 * and when they become visible, is the runtime's business. The index itself is shared by every runtime with the
 * same deferred documents (issue 19); `close` gives this runtime's share back.
 */
export class ToolSearch {
  readonly resident: ReadonlySet<string>;
  readonly maxResults: number;
  private readonly indexes: ToolIndexRegistry;
  private shared: SharedToolIndex | undefined;
  // The last synced set and its number of deferred tools: an unchanged assembly (the usual step) reads no schema.
  // Held by reference (the runtime keeps that set anyway); the documents are not kept: the shared index has them.
  private synced: { tools: ToolSet; deferred: number } | undefined;
  private generation = 0;
  private closed = false;

  constructor(options: ToolsearchOptions & { readonly codemode: boolean; readonly indexes?: ToolIndexRegistry }) {
    this.resident = residentToolNames(options, options.codemode);
    this.maxResults = resolveMaxResults(options);
    this.indexes = options.indexes ?? sharedToolIndexes;
  }

  /** Names of the tools currently in the pool. */
  get deferred(): string[] {
    return this.shared ? [...this.shared.index.names()] : [];
  }

  /**
   * Makes the pool equal to the deferred tools of `tools`: the runtime moves to the index of that document set.
   * Resolves after lazy input schemas have been read; a later sync wins over a slower earlier one. `tools` is
   * kept by reference to recognise the next sync of the same tools: do not change it afterwards.
   */
  async sync(tools: ToolSet): Promise<void> {
    const generation = ++this.generation;
    const names = deferredToolNames(tools, this.resident);
    if (this.shared && this.synced && sameTools(this.synced, tools, names)) return;
    // The usual case: another runtime's index already holds what these tools read as.
    const shared = this.closed ? undefined : this.indexes.share(this.shared, names, tools);
    if (shared) {
      this.shared = shared;
      this.synced = { tools, deferred: names.length };
      return;
    }
    let pending = false;
    const read = names.map((name) => {
      const document = documentOf(name, tools[name]);
      pending ||= document instanceof Promise;
      return document;
    });
    const documents = pending ? await Promise.all(read) : (read as ToolDocument[]);
    if (generation !== this.generation || this.closed) return;
    this.shared = this.indexes.update(this.shared, documents);
    this.synced = { tools, deferred: names.length };
  }

  /** Runs a query; tools in `discovered` are reported `available`, the others `new`. */
  search(query: string, discovered: ReadonlySet<string>): SearchOutput {
    const index = this.shared?.index;
    const tools = (index?.query(query, this.maxResults) ?? []).map((name) => ({
      name,
      description: index?.get(name)?.description ?? "",
      status: discovered.has(name) ? ("available" as const) : ("new" as const),
    }));
    return tools.length > 0 ? { tools } : { tools, note: SEARCH_NO_MATCH_NOTE };
  }

  /** Releases this runtime's share of the index (runtime stop); the pool is empty afterwards. */
  close(): void {
    this.closed = true;
    if (this.shared) this.indexes.release(this.shared);
    this.shared = undefined;
    this.synced = undefined;
  }
}

/** Whether the deferred tools `names` of `tools` are, object for object, those of the last synced set. */
function sameTools(previous: { tools: ToolSet; deferred: number }, tools: ToolSet, names: readonly string[]): boolean {
  if (previous.deferred !== names.length) return false;
  for (const name of names) if (!Object.hasOwn(previous.tools, name) || previous.tools[name] !== tools[name]) return false;
  return true;
}
