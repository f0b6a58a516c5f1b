import type { LanguageModel, LanguageModelCallOptions, ToolChoice, ToolSet } from "ai";
import type { HistoryRetention } from "./history-retention.js";
import type { AgentLogger } from "./logger.js";
import type { AgentPlugin, ToolCallers } from "./plugin.js";
import type { AgentState } from "./state.js";
import type { AgentStorage } from "./storage.js";

/** `createAgent` configuration (AG-15). */
export interface AgentConfig {
  /** Default: a random UUID. */
  id?: string;
  model: LanguageModel;
  instructions?: string;
  tools?: ToolSet;
  toolCallers?: ToolCallers;
  /** Host state handed to the model call; `prepareStep` may replace it for the rest of a turn. */
  runtimeContext?: Record<string, unknown>;
  /** Per-tool context keyed by tool name; `prepareStep` may replace it for the rest of a turn. */
  toolsContext?: Record<string, unknown>;
  toolChoice?: ToolChoice<ToolSet>;
  activeTools?: readonly string[];
  /** Model call settings for every step. */
  settings?: LanguageModelCallOptions;
  /** Default: in memory. */
  storage?: AgentStorage;
  plugins?: readonly AgentPlugin[];
  /** Steps per turn; default 20, at least 1. */
  maxSteps?: number;
  /** Default `{ version: 1 }`; the last persisted `state` entry wins at init. */
  initialState?: AgentState;
  logger?: AgentLogger;
  /**
   * Default: every entry of the stream stays in memory. With a retention, the first read is streamed and only
   * the tail it asks for is kept; `transformEntries` then receives that tail, with its position as `offset`.
   */
  history?: HistoryRetention;
}
