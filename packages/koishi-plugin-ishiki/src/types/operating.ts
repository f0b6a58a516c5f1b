// The facts behind the owner's commands (issue 22): side-request usage, context resets, and the model a step ran on.
import type { LanguageModelUsage } from "ai";

/**
 * A model call made outside a turn step, with what requested it (compaction, a judge, memory, ...): `purpose` is
 * the requester, `<family>:<variant>` for an engine (`context:standard`, `wakeup:judge`) or `extension:<name>`.
 * Turn steps carry their usage on their assistant message instead.
 */
export interface IshikiUsage {
  purpose: string;
  /** The declared reference that served the call (`provider:model[:level]`). */
  model: string;
  usage: LanguageModelUsage;
}

/** A new context from here on (`ishiki.reset`): the context engine sees only entries after the latest one. */
export interface IshikiReset {
  /** Who asked, `platform:userId`, when a person did. */
  by?: string;
}

/** One model call of a step that made several (a toolcall engine calling models of its own). */
export interface IshikiStepCall {
  model: string;
  purpose: string;
  usage: LanguageModelUsage;
}

declare module "@yesimagent/core" {
  interface AgentCustomEntry {
    "ishiki.usage": IshikiUsage;
    "ishiki.reset": IshikiReset;
  }
  interface AgentAssistantMessage {
    /** The declared reference that served this step, when the runtime metered it. */
    model?: string;
    /** Every call of a step that made more than one; the step's `usage` is their sum. */
    calls?: IshikiStepCall[];
  }
}
