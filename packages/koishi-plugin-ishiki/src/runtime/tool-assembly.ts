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
 * its owner, throws `ToolConflictError`; the turn that assembles fails. Runs at every assembly of every runtime
 * over every tool (500 in a large profile, issue 19): a name is checked against the few groups before it, so
 * no map of sources is built (measured ~30 % faster than one).
 */
export function mergeToolGroups(groups: readonly ToolGroup[], owners: Readonly<Record<string, string>> = {}): ToolSet {
  const tools: ToolSet = {};
  for (let i = 0; i < groups.length; i++) {
    const { source, tools: contributed } = groups[i];
    for (const name of Object.keys(contributed)) {
      for (let j = 0; j < i; j++) if (Object.hasOwn(groups[j].tools, name)) throw toolConflict(name, groups[j].source, source);
      if ((RESERVED_TOOL_NAMES as readonly string[]).includes(name)) {
        const owner = owners[name] ?? "reserved";
        if (owner !== source) throw toolConflict(name, owner, source);
      }
      tools[name] = contributed[name];
    }
  }
  return tools;
}
