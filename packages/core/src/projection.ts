import type { ModelMessage, ToolModelMessage } from "ai";
import type { AgentCustomMessageOf, AgentMessage } from "./message.js";

/** The text of a synthetic result for a tool call whose result never reached the stream (AG-54). */
export const MISSING_TOOL_RESULT = "Tool result was not recorded";

export interface ProjectionOptions {
  /** The plugins' `toModelMessages`; `undefined` means nobody projects that custom message. */
  project(message: AgentCustomMessageOf): Promise<ModelMessage[] | undefined>;
  /** Called for a custom message nobody projected (it is dropped, AG-53). */
  dropped(message: AgentCustomMessageOf): void;
}

/**
 * Agent messages to model messages (AG-52): custom messages through the plugins; every other message keeps
 * its role, content and `providerOptions` and loses the agent's own metadata (id, timestamp, usage, finishReason).
 */
export async function projectMessages(messages: readonly AgentMessage[], options: ProjectionOptions): Promise<ModelMessage[]> {
  const projected: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "custom") {
      const models = await options.project(message);
      if (models === undefined) options.dropped(message);
      else projected.push(...models);
      continue;
    }
    const model = { role: message.role, content: message.content } as ModelMessage;
    if (message.providerOptions !== undefined) model.providerOptions = message.providerOptions;
    projected.push(model);
  }
  return projected;
}

export interface RepairedCall {
  toolCallId: string;
  toolName: string;
}

/**
 * Gives every assistant tool call (not provider-executed) without a result a synthetic error result, inserted
 * before the next user or system message or at the end (AG-54). A tool result whose call is not in the history
 * before it (its assistant entry was skipped as invalid when read, AG-7) is left out, with its message when
 * nothing else remains: providers reject such a result, which would fail every later turn. Returns the same
 * array when nothing was changed.
 */
export function repairToolResults(messages: ModelMessage[]): { messages: ModelMessage[]; repaired: RepairedCall[]; orphans: string[] } {
  const pending = new Map<string, string>();
  const called = new Set<string>();
  const repaired: RepairedCall[] = [];
  const orphans: string[] = [];
  let output: ModelMessage[] | undefined;

  const flush = (index: number): void => {
    if (pending.size === 0) return;
    output ??= messages.slice(0, index);
    const content: ToolModelMessage["content"] = [];
    for (const [toolCallId, toolName] of pending) {
      content.push({ type: "tool-result", toolCallId, toolName, output: { type: "error-text", value: MISSING_TOOL_RESULT } });
      repaired.push({ toolCallId, toolName });
    }
    output.push({ role: "tool", content });
    pending.clear();
  };

  messages.forEach((message, index) => {
    if (message.role === "user" || message.role === "system") flush(index);
    if (message.role === "assistant" && typeof message.content !== "string") {
      for (const part of message.content) {
        if (part.type === "tool-call") called.add(part.toolCallId);
        if (part.type === "tool-call" && !part.providerExecuted) pending.set(part.toolCallId, part.toolName);
        if (part.type === "tool-result") pending.delete(part.toolCallId);
      }
    }
    if (message.role === "tool") {
      const kept = message.content.filter((part) => part.type !== "tool-result" || called.has(part.toolCallId));
      for (const part of kept) if (part.type === "tool-result") pending.delete(part.toolCallId);
      if (kept.length < message.content.length) {
        output ??= messages.slice(0, index);
        for (const part of message.content) if (!kept.includes(part) && part.type === "tool-result") orphans.push(part.toolCallId);
        if (kept.length > 0) output.push({ ...message, content: kept });
        return;
      }
    }
    output?.push(message);
  });
  flush(messages.length);
  return { messages: output ?? messages, repaired, orphans };
}
