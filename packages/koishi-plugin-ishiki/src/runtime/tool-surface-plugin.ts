import { createCustomMessage, type Agent, type AgentCustomMessageOf, type AgentEntry, type AgentMessage, type AgentPlugin } from "@yesimagent/core";
import { CATALOG_MESSAGE_TYPE, catalogsSinceBaseline, isCatalogData, type CatalogData } from "../toolsearch/index.js";
import type { ToolSurface } from "./tool-surface.js";

type CatalogMessage = AgentCustomMessageOf<typeof CATALOG_MESSAGE_TYPE>;

function isCatalogMessage(message: AgentMessage): message is CatalogMessage {
  return message.role === "custom" && message.type === CATALOG_MESSAGE_TYPE && isCatalogData(message.data);
}

/** The catalog messages of persisted entries, in stream order. */
export function catalogMessages(entries: readonly AgentEntry[]): CatalogMessage[] {
  const out: CatalogMessage[] = [];
  for (const entry of entries) if (entry.type === "message" && isCatalogMessage(entry.data)) out.push(entry.data);
  return out;
}

/**
 * The agent side of a runtime's ToolSurface: routes and visible tools per step (CT-3, CT-27), catalog messages
 * written from `onStepFinish` (CT-30), their projection as user text, and the CT-34 safety net. Registered after
 * the runtime plugin, so its pipes see the context engine's output.
 */
export class ToolSurfacePlugin implements AgentPlugin {
  readonly name = "ishiki.tool-surface";
  private readonly written: CatalogMessage[] = [];

  constructor(
    private readonly surface: ToolSurface,
    private readonly agent: () => Agent,
  ) {}

  /** Catalog messages already in the fact stream (runtime creation, CT-31). */
  remember(messages: readonly CatalogMessage[]): void {
    for (const message of messages) this.keep(message);
  }

  /** One entry of the stream (the runtime's retention, issue 19): catalogs are kept here, not in the history. */
  observe(entry: AgentEntry): void {
    if (entry.type === "message" && isCatalogMessage(entry.data)) this.keep(entry.data);
  }

  /** The catalogs CT-31 and CT-34 need: since the latest baseline (or the latest one, before any baseline). */
  catalogs(): readonly CatalogMessage[] {
    return this.written;
  }

  /** The stream was cleared. */
  clear(): void {
    this.written.length = 0;
  }

  /** The catalogs kept, for a history checkpoint (issue 19). */
  save(): CatalogMessage[] {
    return [...this.written];
  }

  restore(saved: unknown): boolean {
    if (!Array.isArray(saved) || !saved.every((message) => typeof message === "object" && message !== null && isCatalogMessage(message as AgentMessage))) return false;
    this.written.splice(0, this.written.length, ...(saved as CatalogMessage[]));
    return true;
  }

  private keep(message: CatalogMessage): void {
    // A catalog this plugin wrote is kept when written and observed again when it lands in the stream.
    if (this.written.some((written) => written.id === message.id)) return;
    if (message.data.kind === "baseline") this.written.length = 0;
    else if (!this.written.some((written) => written.data.kind === "baseline")) this.written.length = 0;
    this.written.push(message);
  }

  /** Writes the catalog message the visible set calls for, if any; joins a running turn without starting one. */
  writeCatalog(): CatalogData | undefined {
    const data = this.surface.nextCatalog();
    if (!data) return undefined;
    const message = createCustomMessage(CATALOG_MESSAGE_TYPE, data);
    this.keep(message);
    this.agent().send(message, { trigger: false, ifBusy: "join" });
    return data;
  }

  /**
   * Issue 20: a direct call of a codemode-only tool fails inside the SDK (`Model tried to call unavailable tool
   * ... Available tools: ...`), which tells the model nothing about codemode; the stored result says how to call it.
   */
  onAppend: AgentPlugin["onAppend"] = (entries) => {
    let changed = false;
    const out = entries.map((entry) => {
      if (entry.type !== "message" || entry.data.role !== "tool") return entry;
      let explained = false;
      const content = entry.data.content.map((part) => {
        if (part.type !== "tool-result" || (part.output.type !== "error-text" && part.output.type !== "error-json")) return part;
        const error = this.surface.directCallError(part.toolName);
        if (error === undefined) return part;
        explained = true;
        return { ...part, output: { type: "error-text" as const, value: error } };
      });
      if (!explained) return entry;
      changed = true;
      return { ...entry, data: { ...entry.data, content } };
    });
    return changed ? out : undefined;
  };

  prepareStep: AgentPlugin["prepareStep"] = (step) => {
    const surface = this.surface.step();
    if (surface.toolCallers === undefined && surface.activeTools === undefined) return undefined;
    return { ...step, ...surface };
  };

  onStepFinish: AgentPlugin["onStepFinish"] = () => {
    this.writeCatalog();
    return undefined;
  };

  toModelMessages: AgentPlugin["toModelMessages"] = (message) => {
    if (message.type !== CATALOG_MESSAGE_TYPE || !isCatalogData(message.data)) return undefined;
    return [{ role: "user", content: message.data.text }];
  };

  /** CT-34: a window without the latest baseline gets it back, with the later deltas it lacks, after leading system text. */
  transformMessages: AgentPlugin["transformMessages"] = (messages) => {
    const since = catalogsSinceBaseline(this.written.map((message) => message.data));
    if (since.length === 0) return undefined;
    const baseline = this.written[this.written.length - since.length];
    if (messages.some((message) => message.id === baseline.id)) return undefined;
    const present = new Set(messages.map((message) => message.id));
    const restored = this.written.slice(this.written.length - since.length).filter((message) => !present.has(message.id));
    const head = messages.findIndex((message) => message.role !== "system");
    const at = head === -1 ? messages.length : head;
    return [...messages.slice(0, at), ...restored, ...messages.slice(at)];
  };
}
