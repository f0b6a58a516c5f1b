import type { AgentEntry } from "@yesimagent/core";

/**
 * The entries after the latest `ishiki.reset` (issue 22): `ishiki.reset` starts a new context without deleting
 * history, so the context engine is handed only what came after it. Returns `entries` itself when there is none.
 */
export function sinceLastReset(entries: readonly AgentEntry[]): readonly AgentEntry[] {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    if (entries[index].type === "ishiki.reset") return entries.slice(index + 1);
  }
  return entries;
}
