import type { FinishReason, LanguageModelUsage } from "ai";
import type { AgentErrorInfo } from "./event.js";
import type { AgentMessage } from "./message.js";

/** What `send` does with a message while a turn is running (AG-18). */
export type BusyBehavior = "defer" | "join" | "reject";

export interface AgentSendOptions {
  /** Default `"defer"`. */
  ifBusy?: BusyBehavior;
  /** Default `true`: the message asks for a turn. `false` only records it. */
  trigger?: boolean;
}

export interface AgentWaitOptions {
  signal?: AbortSignal;
}

export type TurnStatus = "done" | "failed" | "aborted";

/** What `onTurnFinish` receives once the terminal event has been stored and delivered. */
export interface TurnResult {
  turnId: string;
  status: TurnStatus;
  /** Every message this turn persisted, in stream order. */
  messages: AgentMessage[];
  steps: number;
  usage?: LanguageModelUsage;
  totalUsage?: LanguageModelUsage;
  error?: AgentErrorInfo;
  reason?: string;
}

/** One finished step as `onStepFinish` sees it. */
export interface AgentStepResult {
  /** The step's persisted assistant and tool messages (empty when the step persisted nothing). */
  messages: AgentMessage[];
  usage?: LanguageModelUsage;
  finishReason?: FinishReason;
  /** Tool calls the model made in this step, invalid ones included (AG-37, AG-47). */
  toolCalls: number;
  seenSeq: number;
}

export interface StepFinishInfo {
  turnId: string;
  stepNumber: number;
  result: AgentStepResult;
}

/** A plugin's opinion on whether the turn goes on after a step; omitted `continue` keeps the default. */
export interface StepFinishDecision {
  continue?: boolean;
}
