import type { AgentEntry } from "@yesimagent/core";

export interface V3WindowOptions {
  maxMessages: number;
  /** 0 keeps the assistant and tool messages of every turn. */
  keepFullTurnCount: number;
}

function replied(entry: AgentEntry): boolean {
  return entry.type === "message" && (entry.data.role === "assistant" || entry.data.role === "tool");
}

/**
 * The v3 window (spec 06 EN-18): the last `maxMessages` message entries, without the assistant and tool
 * messages of turns older than the last `keepFullTurnCount` turns that had any (whole turns, so calls and
 * results stay paired). Non-message entries always stay. Entries are never modified (EN-8). One backward pass.
 */
export function v3Window(entries: readonly AgentEntry[], options: V3WindowOptions): AgentEntry[] {
  const kept: AgentEntry[] = [];
  walkBack(entries, options, (entry) => kept.push(entry));
  return kept.reverse();
}

/**
 * The index of the oldest message entry the window keeps (0 when it may keep the first): what memory must
 * hold (issue 19). Non-message entries older than it never reach the model, since only messages are projected.
 */
export function v3WindowStart(entries: readonly AgentEntry[], options: V3WindowOptions): number {
  return walkBack(entries, options, () => {});
}

/** The backward pass: `keep` gets each kept entry, newest first; returns where the message count ran out, or 0. */
function walkBack(entries: readonly AgentEntry[], options: V3WindowOptions, keep: (entry: AgentEntry) => void): number {
  const recent = new Set<string>();
  let messages = 0;
  let start = 0;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry.type !== "message") {
      keep(entry);
      continue;
    }
    if (options.keepFullTurnCount > 0 && replied(entry) && entry.turnId !== undefined && !recent.has(entry.turnId)) {
      if (recent.size >= options.keepFullTurnCount) continue;
      recent.add(entry.turnId);
    }
    if (messages >= options.maxMessages) continue;
    messages += 1;
    if (messages === options.maxMessages) start = index;
    keep(entry);
  }
  return start;
}
