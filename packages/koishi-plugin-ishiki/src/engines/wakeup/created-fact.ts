import type { AgentEvent } from "@yesimagent/core";
import type { IshikiMessageCreated } from "../../types/index.js";

/** The `ishiki.message.created` fact an agent event appends, with its `seq`; deletions and others give undefined. */
export function createdFact(event: AgentEvent): { fact: IshikiMessageCreated; seq: number } | undefined {
  if (event.type !== "message.appended" || event.message.role !== "custom" || event.message.type !== "ishiki.message.created") return undefined;
  return { fact: event.message.data, seq: event.seq };
}
