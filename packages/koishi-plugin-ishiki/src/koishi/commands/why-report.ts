import type { AgentEntry, LanguageModelUsage } from "@yesimagent/core";
import type { WakeupDecision } from "../../engines/index.js";
import { channelKey } from "../../engines/wakeup/channel-key.js";
import type { IshikiMessageCreated } from "../../types/index.js";
import { entryCalls, type EntryCall } from "../../usage/index.js";

/** What became of one message of the channel: the engine's decisions and the turn that saw it, if any. */
export interface MessageFate {
  seq: number;
  at: number;
  fact: IshikiMessageCreated;
  decisions: WakeupDecision[];
  /** The turn it opened (it was the newest fact when the turn started) or joined (it arrived during the turn). */
  turn?: { id: string; how: "woke" | "joined" };
}

/** One turn as the fact stream records it (spec 01: lifecycle events, assistant steps, tool calls). */
export interface TurnSummary {
  id: string;
  steps: number;
  tools: string[];
  usage?: LanguageModelUsage;
  /** Its model calls, for the cost at the models' declared prices. */
  calls: EntryCall[];
  failed?: string;
}

/**
 * The last `count` messages of `channel` in the stored stream, each with the decisions kept in the runtime's ring
 * and the turn that saw it, plus those turns' summaries.
 */
export function explainChannel(entries: readonly AgentEntry[], decisions: readonly WakeupDecision[], channel: string, count: number): { messages: MessageFate[]; turns: Map<string, TurnSummary> } {
  const fates: MessageFate[] = [];
  let newest: MessageFate | undefined;
  const turns = new Map<string, TurnSummary>();
  entries.forEach((entry, index) => {
    if (entry.type === "message" && entry.data.role === "custom" && entry.data.type === "ishiki.message.created") {
      const fact = entry.data.data;
      newest = undefined;
      if (channelKey(fact) !== channel) return;
      const fate: MessageFate = { seq: index + 1, at: entry.timestamp, fact, decisions: [] };
      if (entry.turnId !== undefined) fate.turn = { id: entry.turnId, how: "joined" };
      fates.push(fate);
      newest = fate;
      return;
    }
    if (entry.type === "event") {
      const event = entry.data;
      const turn = turns.get(event.turnId) ?? { id: event.turnId, steps: 0, tools: [], calls: [] };
      turns.set(event.turnId, turn);
      if (event.type === "turn.start" && newest !== undefined && newest.turn === undefined) newest.turn = { id: event.turnId, how: "woke" };
      if (event.type === "turn.done") {
        turn.steps = event.steps;
        if (event.totalUsage !== undefined) turn.usage = event.totalUsage;
      }
      if (event.type === "turn.failed") turn.failed = event.error.message;
      if (event.type === "turn.aborted") turn.failed = `aborted${event.reason === undefined ? "" : `: ${event.reason}`}`;
      return;
    }
    if (entry.type === "message" && entry.data.role === "assistant" && entry.turnId !== undefined) {
      const turn = turns.get(entry.turnId) ?? { id: entry.turnId, steps: 0, tools: [], calls: [] };
      turns.set(entry.turnId, turn);
      turn.calls.push(...entryCalls(entry));
      if (typeof entry.data.content !== "string") for (const part of entry.data.content) if (part.type === "tool-call" && !turn.tools.includes(part.toolName)) turn.tools.push(part.toolName);
    }
  });
  const shown = fates.slice(-count);
  const bySeq = new Map(shown.map((fate) => [fate.seq, fate]));
  const byId = new Map(shown.map((fate) => [fate.fact.messageId, fate]));
  for (const decision of decisions) {
    const fate = (decision.seq === undefined ? undefined : bySeq.get(decision.seq)) ?? (decision.messageId === undefined || decision.channel !== channel ? undefined : byId.get(decision.messageId));
    fate?.decisions.push(decision);
  }
  const seen = new Set(shown.flatMap((fate) => (fate.turn === undefined ? [] : [fate.turn.id])));
  for (const id of turns.keys()) if (!seen.has(id)) turns.delete(id);
  return { messages: shown, turns };
}
