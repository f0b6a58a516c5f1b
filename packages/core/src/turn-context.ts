import type { LanguageModel, LanguageModelCallOptions, ToolChoice, ToolSet } from "ai";
import type { AgentChannel } from "./channel.js";
import type { AgentEvent, AgentLifecycleEvent } from "./event.js";
import type { FactStream } from "./fact-stream.js";
import type { AgentHooks } from "./hooks.js";
import type { AgentLogger } from "./logger.js";
import type { AgentCustomMessageOf, AgentMessage } from "./message.js";
import type { ToolCallers } from "./plugin.js";

/** What the turn loop and its steps need from the agent that runs them. */
export interface TurnContext {
  readonly maxSteps: number;
  readonly instructions: string | undefined;
  readonly tools: ToolSet | undefined;
  readonly toolCallers: ToolCallers | undefined;
  readonly toolChoice: ToolChoice<ToolSet> | undefined;
  readonly activeTools: readonly string[] | undefined;
  readonly settings: LanguageModelCallOptions | undefined;
  readonly hooks: AgentHooks;
  readonly stream: FactStream;
  readonly channel: AgentChannel;
  readonly logger: AgentLogger;
  getModel(): LanguageModel;
  ensureInit(): Promise<void>;
  /** Records the event for `run()` consumers and delivers it on the `"agent"` channel. */
  emit(event: AgentEvent): Promise<void>;
  /** Stores a lifecycle event, then delivers it (AG-36). */
  emitLifecycle(event: AgentLifecycleEvent): Promise<void>;
  /** Persists the messages not persisted before (AG-14) in one agent-driven append; returns those written. */
  persistMessages(messages: readonly AgentMessage[], turnId?: string): Promise<AgentMessage[]>;
  /** A custom message nobody projected (AG-53). */
  unprojected(message: AgentCustomMessageOf): void;
}
