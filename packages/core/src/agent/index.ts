export { createAgent } from "./agent.js";
export type { Agent, AgentConfig } from "./agent-contract.js";
export { AgentChannel, SLOW_LISTENER_MS } from "./channel.js";
export type { AgentChannelListener, AgentChannelName } from "./channel.js";
export { createEntry, serializeEntry } from "./entry.js";
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
export type { AgentPlugin, Awaitable, StepOptions, ToolCallers, ToolCallInfo, ToolDecision, ToolResultInfo, TurnOptions } from "./plugin.js";
export { MISSING_TOOL_RESULT } from "./projection.js";
export type { AgentCustomState, AgentState, AgentStateStore } from "./state.js";
export type { AgentStorage } from "./storage.js";
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
