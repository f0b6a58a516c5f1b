import type { Tool, ToolSet } from "ai";
import { deferredToolNames, residentToolNames, resolveMaxResults, type ToolsearchOptions } from "./resident.js";
import { SEARCH_NO_MATCH_NOTE, type SearchOutput } from "./search-contract.js";
import { readToolDocument, type ToolDocument } from "./tool-document.js";
import { ToolIndex } from "./tool-index.js";

/**
 * The deferred tool pool of one runtime and the search over it (spec 05 CT-21 .. CT-23). The runtime calls
 * `sync` with every assembled tool set and `search` from the `search` tool; which hits join the discovered set,
 * and when they become visible, is the runtime's business.
 */
export class ToolSearch {
  readonly resident: ReadonlySet<string>;
  readonly maxResults: number;
  private readonly index = new ToolIndex();
  // Extensions may rebuild their tool objects at every assembly; unchanged ones are recognised by identity.
  private readonly read = new WeakMap<Tool, ToolDocument>();
  private generation = 0;

  constructor(options: ToolsearchOptions & { readonly codemode: boolean }) {
    this.resident = residentToolNames(options, options.codemode);
    this.maxResults = resolveMaxResults(options);
  }

  /** Names of the tools currently in the pool. */
  get deferred(): string[] {
    return [...this.index.names()];
  }

  /**
   * Makes the pool equal to the deferred tools of `tools`: new and changed tools are (re)indexed, vanished ones
   * removed. Resolves after lazy input schemas have been read.
   */
  async sync(tools: ToolSet): Promise<void> {
    const generation = ++this.generation;
    const names = deferredToolNames(tools, this.resident);
    const pending: Array<Promise<void>> = [];
    for (const name of names) {
      const tool = tools[name];
      const cached = this.read.get(tool);
      if (cached?.name === name) {
        this.index.set(cached);
        continue;
      }
      const document = readToolDocument(name, tool);
      if (document instanceof Promise) {
        // A later sync owns the pool once it starts; a slow schema from this one must not revive a removed tool.
        const settled = document.then(
          (resolved) => void (generation === this.generation && this.remember(tool, resolved)),
          (error: unknown) => {
            throw new Error(`toolsearch: cannot read the input schema of "${name}": ${error instanceof Error ? error.message : String(error)}`);
          },
        );
        pending.push(settled);
      } else this.remember(tool, document);
    }
    const live = new Set(names);
    for (const name of [...this.index.names()]) if (!live.has(name)) this.index.delete(name);
    await Promise.all(pending);
  }

  /** Runs a query; tools in `discovered` are reported `available`, the others `new`. */
  search(query: string, discovered: ReadonlySet<string>): SearchOutput {
    const tools = this.index.query(query, this.maxResults).map((name) => ({
      name,
      description: this.index.get(name)?.description ?? "",
      status: discovered.has(name) ? ("available" as const) : ("new" as const),
    }));
    return tools.length > 0 ? { tools } : { tools, note: SEARCH_NO_MATCH_NOTE };
  }

  private remember(tool: Tool, document: ToolDocument): void {
    this.read.set(tool, document);
    this.index.set(document);
  }
}
