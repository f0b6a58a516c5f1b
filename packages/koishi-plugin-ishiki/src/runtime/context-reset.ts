import type { AgentEntry } from "@yesimagent/core";

/**
 * The entries after the latest `ishiki.reset` (issue 22) and how many were cut before them: `ishiki.reset` starts
 * a new context without deleting history, so the context engine is handed only what came after it. `entries`
 * itself, with none cut, when there is no reset.
 */
export function sinceLastReset(entries: readonly AgentEntry[]): { entries: readonly AgentEntry[]; cut: number } {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    if (entries[index].type === "ishiki.reset") return { entries: entries.slice(index + 1), cut: index + 1 };
  }
  return { entries, cut: 0 };
}
