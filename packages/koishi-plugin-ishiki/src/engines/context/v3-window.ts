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
  const recent = new Set<string>();
  const kept: AgentEntry[] = [];
  let messages = 0;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry.type !== "message") {
      kept.push(entry);
      continue;
    }
    if (options.keepFullTurnCount > 0 && replied(entry) && entry.turnId !== undefined && !recent.has(entry.turnId)) {
      if (recent.size >= options.keepFullTurnCount) continue;
      recent.add(entry.turnId);
    }
    if (messages >= options.maxMessages) continue;
    messages += 1;
    kept.push(entry);
  }
  return kept.reverse();
}
