import type { AgentRuntime } from "koishi-plugin-ishiki";

/** What the runtime's fact stream has seen of one OneBot account: message ids and authors (OB-12). */
export interface SeenFacts {
  messages: Set<string>;
  users: Set<string>;
}

/** Reads the runtime's facts; an unattached runtime (no handle yet) has seen nothing. */
export async function seenFacts(runtime: AgentRuntime | undefined, selfId: string): Promise<SeenFacts> {
  const seen: SeenFacts = { messages: new Set(), users: new Set() };
  if (!runtime) return seen;
  for (const entry of await runtime.agent.storage.read()) {
    if (entry.type !== "message" || entry.data.role !== "custom" || entry.data.type !== "ishiki.message.created") continue;
    const fact = entry.data.data;
    if (fact.platform !== "onebot" || fact.selfId !== selfId) continue;
    seen.messages.add(fact.messageId);
    seen.users.add(fact.user.id);
  }
  return seen;
}
