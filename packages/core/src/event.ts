import type { LanguageModelUsage, FinishReason, TextStreamPart, ToolSet } from "ai";
import type { AgentMessage } from "./message.js";

/** A serialised error as it travels in events and results (AG-41). */
export interface AgentErrorInfo {
  name: string;
  message: string;
  cause?: string;
  stack?: string;
}

export interface AgentInitEvent {
  type: "agent.init";
}

export interface AgentStopEvent {
  type: "agent.stop";
}

/** A degraded condition the agent recovered from; never persisted (AG-8, AG-21). */
export interface AgentErrorEvent {
  type: "agent.error";
  source: "storage" | "background-write" | (string & {});
  message: string;
}

export interface TurnQueuedEvent {
  type: "turn.queued";
  turnId: string;
}

export interface TurnStartEvent {
  type: "turn.start";
  turnId: string;
}

export interface TurnStepEvent {
  type: "turn.step";
  turnId: string;
  stepNumber: number;
  usage?: LanguageModelUsage;
  finishReason?: FinishReason;
  /** The highest `seq` in the history this step read: a message with `seq <= seenSeq` was seen (AG-34). */
  seenSeq: number;
}

export interface TurnDoneEvent {
  type: "turn.done";
  turnId: string;
  /** The last step's usage. */
  usage?: LanguageModelUsage;
  /** The sum over the turn's steps. */
  totalUsage?: LanguageModelUsage;
  steps: number;
}

export interface TurnFailedEvent {
  type: "turn.failed";
  turnId: string;
  error: AgentErrorInfo;
}

export interface TurnAbortedEvent {
  type: "turn.aborted";
  turnId: string;
  reason?: string;
  /** Set when the turn was dropped from the queue before it started; such events are not persisted (AG-27). */
  dropped?: boolean;
}

export interface ToolStartEvent {
  type: "tool.start";
  turnId: string;
  toolName: string;
  toolCallId?: string;
  args: unknown;
}

export interface ToolDoneEvent {
  type: "tool.done";
  turnId: string;
  toolName: string;
  toolCallId?: string;
  result: unknown;
}

export interface ToolFailedEvent {
  type: "tool.failed";
  turnId: string;
  toolName: string;
  toolCallId?: string;
  args: unknown;
  error: AgentErrorInfo;
}

export interface ToolBlockedEvent {
  type: "tool.blocked";
  turnId: string;
  toolName: string;
  toolCallId?: string;
  reason: string;
}

export interface ToolResultRepairedEvent {
  type: "tool.result_repaired";
  turnId: string;
  toolName: string;
  toolCallId: string;
}

export interface MessageAppendedEvent {
  type: "message.appended";
  message: AgentMessage;
  entryId: string;
  /** The entry's position in this agent's fact stream (AG-34). */
  seq: number;
  turnId?: string;
}

/** Turn lifecycle events: the only events stored as `event` entries (AG-13). */
export type AgentLifecycleEvent = TurnStartEvent | TurnDoneEvent | TurnFailedEvent | TurnAbortedEvent;

export type AgentTerminalEvent = TurnDoneEvent | TurnFailedEvent | TurnAbortedEvent;

/** Everything published on the `"agent"` channel (AG-33). */
export type AgentEvent =
  | AgentInitEvent
  | AgentStopEvent
  | AgentErrorEvent
  | TurnQueuedEvent
  | TurnStartEvent
  | TurnStepEvent
  | TurnDoneEvent
  | TurnFailedEvent
  | TurnAbortedEvent
  | ToolStartEvent
  | ToolDoneEvent
  | ToolFailedEvent
  | ToolBlockedEvent
  | ToolResultRepairedEvent
  | MessageAppendedEvent;

/** One model stream part, published on the `"stream"` channel without awaiting listeners (AG-35). */
export interface AgentStreamEvent {
  turnId: string;
  stepNumber: number;
  part: TextStreamPart<ToolSet>;
}

/**
 * The channels of `agent.channel`, `name → payload`. Augment it to publish your own channel through the same
 * object: `interface AgentCustomEvent { "my.channel": MyPayload }`.
 */
export interface AgentCustomEvent {
  agent: AgentEvent;
  stream: AgentStreamEvent;
}

export function isTerminalEvent(event: AgentEvent): event is AgentTerminalEvent {
  return event.type === "turn.done" || event.type === "turn.failed" || event.type === "turn.aborted";
}
