import type { ToolSet } from "ai";
import type { Agent, AgentPlugin } from "@yesimagent/core";
import { createAttachmentPlugins, sendAttachmentRecord, type ResourceSettings } from "../attachments/index.js";
import { wrapToolSet, type ExitContext } from "../exit/index.js";
import type { HistoryObserver } from "../engines/index.js";
import type { ResourceCenter } from "../resources/index.js";

/**
 * How tool results reach the model: the unified exit (spec 04) and the attachment plugins. The runtime installs
 * it in one place: every assembled ToolSet passes `wrapTools`, `associate` joins the agent first and `project`
 * last (their `enforce` puts them around the runtime plugin).
 */
export interface ToolOutputStage {
  wrapTools(tools: ToolSet): ToolSet;
  readonly plugins: readonly AgentPlugin[];
  /** What the attachments fold needs from every entry when the agent keeps only a tail (issue 19). */
  readonly history: HistoryObserver;
}

export interface ToolOutputOptions {
  runtimeId: string;
  resources: ResourceCenter;
  settings: ResourceSettings;
  /** The agent the attachment records go to; read only when a tool produced attachments. */
  agent(): Agent;
}

export function createToolOutputStage(options: ToolOutputOptions): ToolOutputStage {
  const attachments = createAttachmentPlugins({ resources: options.resources, settings: options.settings });
  const exit: ExitContext = {
    runtimeId: options.runtimeId,
    resources: options.resources,
    imageInput: options.settings.imageInput,
    appendAttachment: (record) => sendAttachmentRecord(options.agent(), record),
  };
  return {
    wrapTools: (tools) => wrapToolSet(tools, exit),
    plugins: [attachments.associate, attachments.project],
    history: attachments.history,
  };
}
