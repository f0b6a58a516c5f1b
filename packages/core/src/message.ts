import type {
  AssistantContent,
  AssistantModelMessage,
  FinishReason,
  LanguageModelUsage,
  SystemModelMessage,
  ToolContent,
  ToolModelMessage,
  UserContent,
  UserModelMessage,
} from "ai";

/** Identity every message carries itself, independent of the entry that stores it (AG-3). */
export interface AgentMessageBase {
  id: string;
  timestamp: number;
}

/**
 * Custom message types, `type → data`. Augment it to declare your own:
 * `declare module "koishi-plugin-ishiki" { interface AgentCustomMessage { "my.note": { text: string } } }`.
 * Custom messages reach the model only through a plugin's `toModelMessages` (AG-52, AG-53).
 */
export interface AgentCustomMessage {}

export type AgentCustomMessageType = Extract<keyof AgentCustomMessage, string>;

/** A custom message of type `T`; before any type is declared, any custom message with unknown data. */
export type AgentCustomMessageOf<T extends AgentCustomMessageType = AgentCustomMessageType> = [T] extends [never]
  ? AgentMessageBase & { role: "custom"; type: string; data: unknown }
  : { [K in T]: AgentMessageBase & { role: "custom"; type: K; data: AgentCustomMessage[K] } }[T];

export interface AgentUserMessage extends AgentMessageBase, UserModelMessage {}

export interface AgentSystemMessage extends AgentMessageBase, SystemModelMessage {}

export interface AgentAssistantMessage extends AgentMessageBase, AssistantModelMessage {
  usage?: LanguageModelUsage;
  finishReason?: FinishReason;
}

export interface AgentToolMessage extends AgentMessageBase, ToolModelMessage {}

export type AgentMessage = AgentUserMessage | AgentSystemMessage | AgentAssistantMessage | AgentToolMessage | AgentCustomMessageOf;

export interface CreateMessageOptions {
  id?: string;
  timestamp?: number;
}

type Extras<M> = CreateMessageOptions & Omit<Partial<M>, "role" | "content" | "id" | "timestamp">;

export function createUserMessage(content: UserContent, options: Extras<AgentUserMessage> = {}): AgentUserMessage {
  const { id, timestamp, ...rest } = options;
  return { ...base(id, timestamp), role: "user", content, ...withoutUndefined(rest) };
}

export function createSystemMessage(content: string, options: Extras<AgentSystemMessage> = {}): AgentSystemMessage {
  const { id, timestamp, ...rest } = options;
  return { ...base(id, timestamp), role: "system", content, ...withoutUndefined(rest) };
}

export function createAssistantMessage(content: AssistantContent, options: Extras<AgentAssistantMessage> = {}): AgentAssistantMessage {
  const { id, timestamp, ...rest } = options;
  return { ...base(id, timestamp), role: "assistant", content, ...withoutUndefined(rest) };
}

export function createToolMessage(content: ToolContent, options: Extras<AgentToolMessage> = {}): AgentToolMessage {
  const { id, timestamp, ...rest } = options;
  return { ...base(id, timestamp), role: "tool", content, ...withoutUndefined(rest) };
}

export function createCustomMessage<T extends AgentCustomMessageType>(
  type: T,
  data: AgentCustomMessage[T],
  options: CreateMessageOptions = {},
): AgentCustomMessageOf<T> {
  return { ...base(options.id, options.timestamp), role: "custom", type, data } as AgentCustomMessageOf<T>;
}

function base(id: string | undefined, timestamp: number | undefined): AgentMessageBase {
  return { id: id ?? crypto.randomUUID(), timestamp: timestamp ?? Date.now() };
}

// Optional metadata left undefined must not appear as `"usage":undefined`-style keys in memory either.
function withoutUndefined<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] !== undefined) out[key] = value[key];
  return out;
}
