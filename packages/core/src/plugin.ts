import type { LanguageModelCallOptions, ModelMessage, ToolChoice, ToolSet } from "ai";
import type { Agent } from "./agent-contract.js";
import type { AgentEntry } from "./entry.js";
import type { AgentCustomMessageOf, AgentMessage } from "./message.js";
import type { StepFinishDecision, StepFinishInfo, TurnResult } from "./turn.js";

export type Awaitable<T> = T | PromiseLike<T>;

/**
 * Tool routing (AG-17): tool name → the caller tools allowed to invoke it, `"direct"` meaning the model
 * itself. A tool listed without `"direct"` is not sent to the model; its callers run it through the agent,
 * so hooks, `tool.*` events and abort apply to the nested call. Tools not listed are direct-only.
 */
export type ToolCallers = Record<string, readonly string[]>;

export interface TurnOptions {
  readonly turnId: string;
  readonly signal: AbortSignal;
}

/** What `transformEntries` learns besides the turn. */
export interface EntriesOptions extends TurnOptions {
  /**
   * The stream position of the first entry the agent handed to the pipe: 0 unless `AgentConfig.history`
   * dropped older entries from memory.
   */
  readonly offset: number;
}

/** The model call of one step as `prepareStep` may rewrite it. */
export interface StepOptions extends TurnOptions {
  readonly stepNumber: number;
  /** Assembled at step 0 of the turn (AG-39). */
  readonly instructions: string | undefined;
  readonly messages: ModelMessage[];
  /** The turn's assembled tools; a replacement applies to this step only. */
  readonly tools: ToolSet;
  readonly toolCallers: ToolCallers | undefined;
  /** Host state for the model call's callbacks; a new object returned here lasts for the rest of the turn. */
  readonly runtimeContext: Record<string, unknown>;
  /** Per-tool context keyed by tool name; a new object returned here lasts for the rest of the turn. */
  readonly toolsContext: Record<string, unknown>;
  readonly toolChoice: ToolChoice<ToolSet> | undefined;
  readonly activeTools: readonly string[] | undefined;
  readonly settings: LanguageModelCallOptions | undefined;
}

export interface ToolCallInfo {
  /** Absent for nested calls whose caller gave none. */
  toolCallId?: string;
  toolName: string;
  args: unknown;
}

export type ToolDecision = { type: "allow" } | { type: "block"; reason: string } | { type: "replace"; args: unknown };

export interface ToolResultInfo extends ToolCallInfo {
  result: unknown;
  isError: boolean;
}

/**
 * A plugin extends the agent through optional hooks, run in the order pre, registration, post (AG-49).
 * Pipes receive the previous plugin's value; returning `undefined` keeps it.
 *
 * | Hook | Combination | When | On throw |
 * |---|---|---|---|
 * | `init` / `stop` | sequential / reverse | lazily before step 0 / `stop()` | init rolls back and rethrows / propagates |
 * | `extendInstructions`, `extendTools` | sequential, merged | step 0 of each turn | turn fails |
 * | `onAppend` | pipe | each agent-driven append | the write fails |
 * | `transformEntries`, `transformMessages` | pipe | each step | turn fails |
 * | `toModelMessages` | first non-undefined | each custom message | turn fails |
 * | `prepareStep` | pipe | each step | turn fails |
 * | `beforeToolCall`, `afterToolCall` | pipe | each call | that call's error result |
 * | `onStepFinish` | all, first defined decision wins | each step | ignored |
 * | `onTurnFinish` | all, sequential | after the terminal event | ignored |
 */
export interface AgentPlugin {
  name: string;
  enforce?: "pre" | "post";
  init?(agent: Agent): Awaitable<void>;
  stop?(): Awaitable<void>;
  extendInstructions?(): Awaitable<string | undefined | void>;
  extendTools?(): Awaitable<ToolSet | undefined | void>;
  onAppend?(entries: AgentEntry[]): Awaitable<AgentEntry[] | undefined | void>;
  /**
   * Receives the agent's live history (the tail `AgentConfig.history` keeps, whole without it; never copied, so a step costs the same at any history size): do not
   * mutate it, and read what you need before awaiting, as entries appended meanwhile land at its end.
   */
  transformEntries?(entries: readonly AgentEntry[], options: EntriesOptions): Awaitable<readonly AgentEntry[] | undefined | void>;
  transformMessages?(messages: AgentMessage[], options: TurnOptions): Awaitable<AgentMessage[] | undefined | void>;
  toModelMessages?(message: AgentCustomMessageOf): Awaitable<ModelMessage[] | undefined | void>;
  prepareStep?(options: StepOptions): Awaitable<StepOptions | undefined | void>;
  beforeToolCall?(decision: ToolDecision, call: ToolCallInfo): Awaitable<ToolDecision | undefined | void>;
  afterToolCall?(result: ToolResultInfo): Awaitable<ToolResultInfo | undefined | void>;
  onStepFinish?(info: StepFinishInfo): Awaitable<StepFinishDecision | undefined | void>;
  onTurnFinish?(result: TurnResult): Awaitable<void>;
}
