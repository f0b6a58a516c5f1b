import type { ToolSet } from "ai";
import { ToolConflictError } from "@yesimagent/core";

/** Names the kernel keeps even when their feature is off (spec 07 XA-12). */
export const RESERVED_TOOL_NAMES = ["wait", "codemode", "search"] as const;

/** A named contribution to a runtime's tool surface: `core`, `extension <name>`, … */
export interface ToolGroup {
  source: string;
  tools: ToolSet;
}

/** `Tool conflict: <name> (<source A> and <source B>)` with the stable name `ToolConflictError` (XA-12). */
export function toolConflict(name: string, first: string, second: string): ToolConflictError {
  const error = new ToolConflictError(name);
  error.message = `Tool conflict: ${name} (${first} and ${second})`;
  return error;
}

/**
 * Merges tool groups in order (XA-11). A name contributed twice, or a reserved name contributed by anyone but
 * its owner, throws `ToolConflictError`; the turn that assembles fails.
 */
export function mergeToolGroups(groups: readonly ToolGroup[], owners: Readonly<Record<string, string>> = {}): ToolSet {
  const tools: ToolSet = {};
  const sources = new Map<string, string>();
  for (const { source, tools: contributed } of groups) {
    for (const [name, tool] of Object.entries(contributed)) {
      const taken = sources.get(name);
      if (taken !== undefined) throw toolConflict(name, taken, source);
      const owner = (RESERVED_TOOL_NAMES as readonly string[]).includes(name) ? (owners[name] ?? "reserved") : undefined;
      if (owner !== undefined && owner !== source) throw toolConflict(name, owner, source);
      sources.set(name, source);
      tools[name] = tool;
    }
  }
  return tools;
}
