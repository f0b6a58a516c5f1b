// One AI SDK for everything built on the core (spec 00 OV-14): the core's own exports below win over same-named
// star exports (`Agent` is the core's handle, not the SDK's interface); names exported by more than one SDK
// package are taken from `ai` explicitly so nothing is ambiguous.
export * from "ai";
export * from "@ai-sdk/provider";
export * from "@ai-sdk/provider-utils";
export {
  InvalidArgumentError,
  Experimental_EvaluationUnsupportedQuestionTypeError,
  type JSONValue,
  type ProviderReference,
} from "ai";
export { MockLanguageModelV4 } from "ai/test";

export { createAgent } from "./agent.js";
export type { AgentConfig } from "./agent-config.js";
export type { Agent } from "./agent-contract.js";
export { AgentChannel, SLOW_LISTENER_MS } from "./channel.js";
export type { AgentChannelListener, AgentChannelName } from "./channel.js";
export { createEntry, serializeEntry } from "./entry.js";
export type { DataCheck, EntryChecks } from "./entry-check.js";
export type { AgentCustomEntry, AgentEntry, AgentEntryDataMap, AgentEntryType, CreateEntryOptions } from "./entry.js";
export { AgentBusyError, AgentRuntimeError, ToolConflictError, ToolError } from "./errors.js";
export type {
  AgentCustomEvent,
  AgentErrorEvent,
  AgentErrorInfo,
  AgentEvent,
  AgentInitEvent,
  AgentLifecycleEvent,
  AgentStopEvent,
  AgentStreamEvent,
  AgentTerminalEvent,
  MessageAppendedEvent,
  ToolBlockedEvent,
  ToolDoneEvent,
  ToolFailedEvent,
  ToolResultRepairedEvent,
  ToolStartEvent,
  TurnAbortedEvent,
  TurnDoneEvent,
  TurnFailedEvent,
  TurnQueuedEvent,
  TurnStartEvent,
  TurnStepEvent,
} from "./event.js";
export { createJsonlStorage } from "./jsonl-storage.js";
export type { JsonlStorageOptions } from "./jsonl-storage.js";
export type { HistoryRetention } from "./history-retention.js";
export type { AgentLogger } from "./logger.js";
export { createMemoryStorage } from "./memory-storage.js";
export { createAssistantMessage, createCustomMessage, createSystemMessage, createToolMessage, createUserMessage } from "./message.js";
export type {
  AgentAssistantMessage,
  AgentCustomMessage,
  AgentCustomMessageOf,
  AgentCustomMessageType,
  AgentMessage,
  AgentMessageBase,
  AgentSystemMessage,
  AgentToolMessage,
  AgentUserMessage,
  CreateMessageOptions,
} from "./message.js";
export type { AgentPlugin, Awaitable, EntriesOptions, StepOptions, ToolCallers, ToolCallInfo, ToolDecision, ToolResultInfo, TurnOptions } from "./plugin.js";
export { MISSING_TOOL_RESULT } from "./projection.js";
export type { AgentCustomState, AgentState, AgentStateStore } from "./state.js";
export type { AgentStorage, StorageCheckpoints } from "./storage.js";
export type {
  AgentSendOptions,
  AgentWaitOptions,
  BusyBehavior,
  StepFinishDecision,
  StepFinishInfo,
  AgentStepResult,
  TurnResult,
  TurnStatus,
} from "./turn.js";
