import type { AgentLifecycleEvent } from "./event.js";
import type { AgentMessage } from "./message.js";
import type { AgentState } from "./state.js";

/**
 * Custom entry types, `type → data`, stored in the fact stream beside messages but never shown to the model
 * as such (AG-2). Ishiki declares `ishiki.compact` and `ishiki.delivery` here from `types/`.
 */
export interface AgentCustomEntry {}

/** Every entry type with its data: the built-in `message`, `event` and `state`, plus the custom ones. */
export type AgentEntryDataMap = {
  message: AgentMessage;
  event: AgentLifecycleEvent;
  state: AgentState;
} & AgentCustomEntry;

export type AgentEntryType = Extract<keyof AgentEntryDataMap, string>;

/**
 * One line of the fact stream (AG-1). Serialised with the keys in this order; undefined keys are omitted.
 * `turnId` is set on entries written inside a turn.
 */
export type AgentEntry<T extends AgentEntryType = AgentEntryType> = {
  [K in T]: { id: string; type: K; data: AgentEntryDataMap[K]; timestamp: number; parentId?: string; turnId?: string };
}[T];

export interface CreateEntryOptions {
  id?: string;
  timestamp?: number;
  parentId?: string;
  turnId?: string;
}

export function createEntry<T extends AgentEntryType>(type: T, data: AgentEntryDataMap[T], options: CreateEntryOptions = {}): AgentEntry<T> {
  // Built key by key so that JSON.stringify writes them in the documented order (AG-1).
  const entry: Record<string, unknown> = { id: options.id ?? crypto.randomUUID(), type, data, timestamp: options.timestamp ?? Date.now() };
  if (options.parentId !== undefined) entry.parentId = options.parentId;
  if (options.turnId !== undefined) entry.turnId = options.turnId;
  return entry as AgentEntry<T>;
}

export function isMessageEntry(entry: AgentEntry): entry is AgentEntry<"message"> {
  return entry.type === "message";
}

/** One events.jsonl line without its newline, keys in AG-1 order whatever order the object was built in. */
export function serializeEntry(entry: AgentEntry): string {
  const { id, type, data, timestamp, parentId, turnId } = entry;
  return JSON.stringify({ id, type, data, timestamp, parentId, turnId });
}
