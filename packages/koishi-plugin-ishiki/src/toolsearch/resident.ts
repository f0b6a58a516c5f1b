import { SEARCH_TOOL_NAME } from "./search-contract.js";

/** Toolsearch settings of a profile (`toolsearch.*`, spec 05 CT-21). */
export interface ToolsearchOptions {
  /** Tool names that stay visible besides the kernel's resident tools. Default `[]`. */
  readonly resident?: readonly string[];
  /** Most hits one `search` call returns, 1-20. Default 5. */
  readonly maxResults?: number;
}

export const DEFAULT_MAX_RESULTS = 5;
export const MAX_RESULTS_LIMIT = 20;

/** Kernel tools that are always visible with toolsearch on; `codemode` joins them when codemode is on. */
export const KERNEL_RESIDENT_TOOLS: readonly string[] = ["finish", "send_message", "read", SEARCH_TOOL_NAME, "wait"];

/** The resident set: kernel tools, `codemode` when on, and the profile's `resident` names. */
export function residentToolNames(options: ToolsearchOptions, codemode: boolean): ReadonlySet<string> {
  return new Set([...KERNEL_RESIDENT_TOOLS, ...(codemode ? ["codemode"] : []), ...(options.resident ?? [])]);
}

/** Names of the deferred tools of a tool set: every tool not resident, in the set's order. */
export function deferredToolNames(tools: Readonly<Record<string, unknown>>, resident: ReadonlySet<string>): string[] {
  return Object.keys(tools).filter((name) => !resident.has(name));
}

/** `maxResults` with its default applied; out-of-range values fail with a one-line error (QA-1). */
export function resolveMaxResults(options: ToolsearchOptions): number {
  const value = options.maxResults ?? DEFAULT_MAX_RESULTS;
  if (!Number.isInteger(value) || value < 1 || value > MAX_RESULTS_LIMIT) {
    throw new RangeError(`toolsearch.maxResults: must be an integer from 1 to ${MAX_RESULTS_LIMIT} (got ${value})`);
  }
  return value;
}
