import type { CatalogData, CatalogMode, CatalogState, CatalogTool } from "./catalog-data.js";
import { catalogText } from "./catalog-text.js";

/** Inputs of one catalog decision; the runtime computes the visible set (spec 05 CT-27). */
export interface CatalogUpdateInput {
  /** The state folded from persisted catalogs (`foldCatalogs`), or `undefined` when none exist yet. */
  readonly previous: CatalogState | undefined;
  /** The visible set now, in assembly order. */
  readonly visible: readonly string[];
  readonly mode: CatalogMode;
  /** A visible tool's description. */
  readonly describe: (name: string) => string | undefined;
  /** A tool's TypeScript declaration (codemode's signature generator); used in `codemode` mode only. */
  readonly signature?: (name: string) => string | undefined;
}

// Without a generated declaration the tool is still callable; the model then sees untyped input and output.
function fallbackSignature(name: string, description: string): string {
  const doc = description ? `/** ${description.replace(/\*\//g, "*\\/")} */\n` : "";
  return `${doc}declare function ${name}(input: unknown): Promise<unknown>;`;
}

function catalogTool(name: string, input: CatalogUpdateInput): CatalogTool {
  const description = input.describe(name) ?? "";
  if (input.mode !== "codemode") return { name, description };
  return { name, description, signature: input.signature?.(name) ?? fallbackSignature(name, description) };
}

/**
 * The catalog message to write, or `undefined` when the visible set did not change (spec 05 CT-30 .. CT-33).
 * A baseline is written when nothing was persisted yet, and (decided here) when the mode changed since, because
 * a delta in another mode would describe tools the model cannot call that way.
 */
export function catalogUpdate(input: CatalogUpdateInput): CatalogData | undefined {
  const { previous, visible, mode } = input;
  if (!previous || previous.mode !== mode) {
    const added = visible.map((name) => catalogTool(name, input));
    const data = { version: 1 as const, kind: "baseline" as const, mode, added, removed: [], visible: [...visible] };
    return { ...data, text: catalogText(data) };
  }
  const before = new Set(previous.visible);
  const after = new Set(visible);
  const added = visible.filter((name) => !before.has(name)).map((name) => catalogTool(name, input));
  const removed = previous.visible.filter((name) => !after.has(name));
  if (added.length === 0 && removed.length === 0) return undefined;
  const data = { version: 1 as const, kind: "delta" as const, mode, added, removed, visible: [...visible] };
  return { ...data, text: catalogText(data) };
}
