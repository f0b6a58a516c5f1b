import type { ToolSet } from "ai";
import type { Agent, AgentPlugin } from "@yesimagent/core";
import type { ContextEngineInstance } from "../engines/index.js";
import { renderFacts } from "../engines/shared/index.js";
import type { ModelBinding } from "./model-binding.js";
import { sinceLastReset } from "./context-reset.js";
import { stopRule } from "./stop-rule.js";

/** What the model sees in place of a history that holds nothing yet; never persisted. */
export const EMPTY_HISTORY_PROMPT = "(No messages yet.) Continue.";

export interface RuntimePluginOptions {
  context: ContextEngineInstance;
  /** Facts from several channels: channel heads in the default rendering (EN-11). */
  cross: boolean;
  /** The turn's instructions (KP-36), assembled at step 0. */
  instructions(): Promise<string>;
  /** The turn's tool surface (XA-11), assembled at step 0 and already wrapped by the exit. */
  tools(): Promise<ToolSet>;
  model: ModelBinding;
  agent(): Agent;
}

/**
 * The agent hooks a runtime owns (spec 07 XA-25: none of this is open to extensions): step-0 assembly, the
 * context engine's pipes followed by the default fact rendering (06 EN-7, EN-10), adopting a replaced model
 * (EN-38) and the stop rule (EN-44). The exit's own plugin is installed after this one, so attachment
 * projection sees rendered messages.
 */
export function createRuntimePlugin(options: RuntimePluginOptions): AgentPlugin {
  const { context } = options;
  return {
    name: "ishiki.runtime",
    extendInstructions: () => options.instructions(),
    extendTools: () => options.tools(),
    async transformEntries(entries, request) {
      // Every engine sees the context after the latest `ishiki.reset` only (issue 22); history stays on disk.
      // Positions stay absolute (issue 19): the engine learns where the slice it is handed starts in the stream.
      const { entries: current, cut } = sinceLastReset(entries);
      if (context.prepareEntries) return await context.prepareEntries(current, { ...request, offset: request.offset + cut });
      return cut === 0 ? undefined : current;
    },
    async transformMessages(messages, request) {
      const rendered = context.renderMessages ? await context.renderMessages(messages, request) : messages;
      return renderFacts(rendered, { cross: options.cross });
    },
    prepareStep(step) {
      options.model.refresh(options.agent());
      // A wake on an empty history (a timer before any message) still needs one message for the model call.
      if (step.messages.length === 0) return { ...step, messages: [{ role: "user", content: EMPTY_HISTORY_PROMPT }] };
      return undefined;
    },
    onStepFinish: (info) => stopRule(info),
  };
}
