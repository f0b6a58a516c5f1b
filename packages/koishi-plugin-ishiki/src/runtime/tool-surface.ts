import { asSchema, type Tool, type ToolSet } from "ai";
import type { AgentLogger, ToolCallers } from "@yesimagent/core";
import { codemodeDescription, createCodemodeSandbox, toolDeclaration, type CodemodeSandbox, type CodemodeToolSignatureSource, type JsonSchema } from "../codemode/index.js";
import { catalogUpdate, discoveredTools, foldCatalogs, ToolSearch, type CatalogData, type CatalogMode } from "../toolsearch/index.js";
import { createCodemodeTool, createSearchTool } from "../tools/index.js";
import type { CodemodeSettings, ToolsearchSettings } from "./program-settings.js";
import { routeTools, type ToolRoutes } from "./tool-routing.js";

export interface ToolSurfaceOptions {
  readonly codemode: CodemodeSettings;
  readonly toolsearch: ToolsearchSettings;
  readonly logger: AgentLogger;
  /** How a tool is declared to and checked for programs when that differs from the model's view (`read` without `lifetime`). */
  readonly programViews?: Readonly<Record<string, Tool>>;
}

/** What the next step sends: the routing table (codemode on) and the visible tools (toolsearch on). */
export interface StepSurface {
  readonly toolCallers?: ToolCallers;
  readonly activeTools?: readonly string[];
}

/** CT-29: the error a program gets for a tool it cannot see. */
export const notInCatalog = (name: string): string => `Tool "${name}" is not in the current catalog; call search to discover it`;

/**
 * The codemode and toolsearch side of a runtime's tool surface (spec 05): completes each assembled tool set
 * with `codemode` (its description built from that set) and routes it (CT-2, CT-3); keeps the discovered set,
 * the search over the deferred pool (its index shared by runtimes with the same tools) and the catalog state
 * (CT-21 .. CT-33). One per runtime.
 */
export class ToolSurface {
  readonly sandbox: CodemodeSandbox | undefined;
  private readonly search: ToolSearch | undefined;
  private readonly mode: CatalogMode;
  private readonly discovered = new Set<string>();
  private readonly pending = new Set<string>();
  private readonly warned = new Set<string>();
  private readonly sources = new WeakMap<Tool, CodemodeToolSignatureSource>();
  private assembled: { tools: ToolSet; routes: ToolRoutes | undefined; signatures: Map<string, CodemodeToolSignatureSource> } | undefined;
  private catalog: { mode: CatalogMode; visible: readonly string[] } | undefined;

  constructor(private readonly options: ToolSurfaceOptions) {
    const { codemode, toolsearch } = options;
    this.sandbox = codemode.enable ? createCodemodeSandbox({ limits: codemode.limits }) : undefined;
    this.search = toolsearch.enable ? new ToolSearch({ codemode: codemode.enable, resident: toolsearch.resident, maxResults: toolsearch.maxResults }) : undefined;
    this.mode = codemode.enable ? "codemode" : "direct";
  }

  /** Whether toolsearch is on: catalogs are written and the deferred pool is searched. */
  get searching(): boolean {
    return this.search !== undefined;
  }

  /** Kernel tools that join the assembly's last core group: `search` when toolsearch is on. */
  kernelTools(): ToolSet {
    if (!this.search) return {};
    const search = this.search;
    return {
      search: createSearchTool({
        search: async (query) => {
          const output = search.search(query, this.discovered);
          const hits = output.tools.filter((hit) => hit.status === "new").map((hit) => hit.name);
          // Declared first: a signature that cannot be read fails this search, and nothing joins the catalog.
          await this.declare(hits);
          for (const name of hits) this.pending.add(name);
          return output;
        },
        ...(this.sandbox ? { callOf: (name: string) => this.callOf(name) } : {}),
      }),
    };
  }

  /**
   * With codemode on, how the model calls `name` as the latest routing has it (issue 20): inside programs only,
   * directly only, or both. Undefined without codemode or for a name the assembly does not hold.
   */
  callOf(name: string): string | undefined {
    const routes = this.assembled?.routes;
    if (!routes || !Object.hasOwn(this.assembled!.tools, name)) return undefined;
    const program = routes.programCallable.includes(name);
    const direct = routes.direct.includes(name);
    const inside = `inside codemode programs as await tools.${name}(input)`;
    if (program && !direct) return `only ${inside}; a direct call fails`;
    if (program) return `directly, or ${inside}`;
    return "directly only (not from codemode programs)";
  }

  /**
   * The error for a direct call the model cannot make (issue 20): a codemode-only tool says how to call it (and
   * that search comes first when it is not in the catalog yet). Undefined when the tool is not codemode-only.
   */
  directCallError(name: string): string | undefined {
    const routes = this.assembled?.routes;
    if (!routes || !routes.programCallable.includes(name) || routes.direct.includes(name)) return undefined;
    const lines = [`Tool "${name}" is callable only inside codemode programs, not directly. Call codemode with a program such as: const result = await tools.${name}({ ... }); return result;`];
    if (this.search && !this.visible().includes(name)) lines.push(`It is not in the current catalog yet: call search to discover it first.`);
    return lines.join(" ");
  }

  /** Adds `codemode` to a merged tool set and records its routes, signatures and the live deferred pool. */
  async complete(merged: ToolSet): Promise<ToolSet> {
    // The surface keeps this set until the next assembly, and so does the pool's sync. A set merged key by key is
    // a hash table (about 24 KB at 500 tools), its copy is compact (about 4 KB): a runtime keeps the copy (issue 19).
    const tools: ToolSet = { ...merged };
    const signatures = new Map<string, CodemodeToolSignatureSource>();
    let routes: ToolRoutes | undefined;
    if (this.sandbox) {
      routes = routeTools(merged, this.options.codemode);
      for (const name of routes.unknown) this.warnOnce(name);
      // With toolsearch on, only visible tools are declared (in catalogs, not in the description): reading the
      // signature of each of 500 deferred tools at every runtime's creation bought nothing (issue 19). A search
      // hit is declared when it is found (`declare`).
      const search = this.search;
      const declared = search ? routes.programCallable.filter((name) => search.resident.has(name) || this.discovered.has(name) || this.pending.has(name)) : routes.programCallable;
      for (const name of declared) signatures.set(name, await this.signatureSource(name, this.options.programViews?.[name] ?? merged[name]));
      const description = codemodeDescription({
        tools: search ? [] : routes.programCallable.map((name) => signatures.get(name)!),
        limits: this.sandbox.limits,
        catalog: this.search ? "messages" : "inline",
      });
      const codemode = createCodemodeTool({
        sandbox: this.sandbox,
        description,
        ...(this.options.programViews ? { programViews: this.options.programViews } : {}),
        ...(this.search ? { describeUnknownTool: notInCatalog } : {}),
      });
      // Merge order ends `wait`, `codemode`, `search` (00 OV-17).
      delete tools.search;
      Object.assign(tools, { codemode }, merged.search ? { search: merged.search } : {});
      routes = routeTools(tools, this.options.codemode);
    }
    if (this.search) {
      await this.search.sync(tools);
      // Tools that vanished leave the discovered set (CT-28); the next catalog says so.
      for (const name of this.discovered) if (!Object.hasOwn(tools, name)) this.discovered.delete(name);
    }
    this.assembled = { tools, routes, signatures };
    return tools;
  }

  /** The step's routing and visible set (CT-3, CT-27). */
  step(): StepSurface {
    const routes = this.assembled?.routes;
    return {
      ...(routes ? { toolCallers: routes.toolCallers } : {}),
      ...(this.search ? { activeTools: this.visible() } : {}),
    };
  }

  /** Rebuilds the discovered set from persisted catalog data, in stream order (CT-31). */
  restore(catalogs: Iterable<unknown>): void {
    if (!this.search) return;
    const state = foldCatalogs(catalogs);
    this.catalog = state;
    for (const name of discoveredTools(state, this.search.resident)) this.discovered.add(name);
  }

  /**
   * Folds this step's new hits into the discovered set and returns the catalog message to write, if the
   * visible set changed since the last one (CT-30 .. CT-33). Returns nothing before the first assembly.
   */
  nextCatalog(): CatalogData | undefined {
    if (!this.search || !this.assembled) return undefined;
    const { tools, routes, signatures } = this.assembled;
    for (const name of this.pending) if (Object.hasOwn(tools, name)) this.discovered.add(name);
    this.pending.clear();
    const program = new Set(routes?.programCallable ?? []);
    const visible = this.visible().filter((name) => this.mode === "direct" || program.has(name));
    const update = catalogUpdate({
      previous: this.catalog,
      visible,
      mode: this.mode,
      describe: (name) => (typeof tools[name]?.description === "string" ? tools[name].description : undefined),
      signature: (name) => {
        const source = signatures.get(name);
        return source ? toolDeclaration(source) : undefined;
      },
    });
    if (update) this.catalog = { mode: update.mode, visible: update.visible };
    return update;
  }

  /**
   * Reads the signatures of program-callable search hits of the latest assembly, for the catalog that announces
   * them at the end of the step (CT-27, CT-32).
   */
  private async declare(names: readonly string[]): Promise<void> {
    const assembled = this.assembled;
    if (!assembled?.routes) return;
    for (const name of names) {
      if (assembled.signatures.has(name) || !assembled.routes.programCallable.includes(name)) continue;
      assembled.signatures.set(name, await this.signatureSource(name, this.options.programViews?.[name] ?? assembled.tools[name]));
    }
  }

  /** Resident and discovered tools of the latest assembly, in assembly order. */
  private visible(): string[] {
    const tools = this.assembled?.tools ?? {};
    const resident = this.search?.resident ?? new Set<string>();
    return Object.keys(tools).filter((name) => resident.has(name) || this.discovered.has(name));
  }

  private async signatureSource(name: string, tool: Tool): Promise<CodemodeToolSignatureSource> {
    const cached = this.sources.get(tool);
    if (cached?.name === name) return cached;
    const inputSchema = (await asSchema(tool.inputSchema).jsonSchema) as JsonSchema;
    const outputSchema = tool.outputSchema === undefined ? undefined : ((await asSchema(tool.outputSchema).jsonSchema) as JsonSchema);
    const description = typeof tool.description === "string" ? tool.description : undefined;
    const source: CodemodeToolSignatureSource = { name, inputSchema, ...(outputSchema === undefined ? {} : { outputSchema }), ...(description === undefined ? {} : { description }) };
    this.sources.set(tool, source);
    return source;
  }

  private warnOnce(name: string): void {
    if (this.warned.has(name)) return;
    this.warned.add(name);
    this.options.logger.warn(`codemode: "${name}" in codemode.direct or codemode.directOnly matches no tool`);
  }

  /** Returns the sandbox's lease on the shared codemode pool and gives back the shared search index (runtime stop). */
  async close(): Promise<void> {
    this.search?.close();
    await this.sandbox?.close();
  }
}
