import type { Tool } from "ai";
import { createUserMessage, type Agent, type AgentLogger, type AgentMessage, type AgentPlugin, type StepFinishInfo } from "@yesimagent/core";
import type { ResolvedProfile, TextReplyMode } from "../profile/index.js";

/** The one extra step's note under `textReply: nudge`; persisted as a user message, so the history reads true. */
export const TEXT_REPLY_NOTE =
  "[ishiki] Your last message was plain text, and plain text never reaches the chat. Only send_message reaches users: call send_message with your reply, or call finish to stay silent.";

/** Toolcall engines whose protocol carries the reply itself (06 EN-41, EN-42): their text is not a chat reply. */
const OWN_REPLY_PATH: readonly string[] = ["v3", "narrative"];

/**
 * The profile's `textReply` for one runtime; none for engines with their own reply path. Cross mode has no
 * channel to send plain text to, so `send` asks the model instead (`nudge`).
 */
export function textReplyMode(profile: Pick<ResolvedProfile, "textReply" | "toolcall">, cross: boolean): TextReplyMode | undefined {
  if (OWN_REPLY_PATH.includes(profile.toolcall.engine)) return undefined;
  return cross && profile.textReply === "send" ? "nudge" : profile.textReply;
}

export interface TextReplyOptions {
  mode: TextReplyMode;
  /** The runtime's `send_message` (what `textReply: send` delivers through). */
  sendMessage: Tool;
  logger: AgentLogger;
  agent(): Agent;
}

/**
 * What happens to a turn that would end with assistant text and no `send_message` in that turn (issue 20): under
 * `nudge` one more step runs after a note saying only `send_message` reaches the chat; under `send` the text goes
 * out through `send_message` itself; under `drop` it stays private with one info line. Installed after the
 * runtime plugin, so the stop rule (EN-44) decides first: a step with tool calls is never a text ending.
 */
export function createTextReplyPlugin(options: TextReplyOptions): AgentPlugin {
  let sent = false;
  let nudged = false;
  return {
    name: "ishiki.text-reply",
    afterToolCall(result) {
      // Nested calls from codemode come through here too (AG-17): a program's send_message counts.
      if (result.toolName === "send_message" && !result.isError && isOk(result.result)) sent = true;
      return undefined;
    },
    async onStepFinish(info: StepFinishInfo) {
      if (info.result.toolCalls > 0 || sent) return undefined;
      const text = assistantText(info.result.messages);
      if (text === "") return undefined;
      if (options.mode === "nudge" && !nudged) {
        nudged = true;
        options.logger.debug(`turn ${info.turnId}: the model answered in plain text; one more step with the send_message note (textReply: nudge)`);
        options.agent().send(createUserMessage(TEXT_REPLY_NOTE), { trigger: false, ifBusy: "join" });
        return { continue: true };
      }
      if (options.mode === "send") {
        await deliver(text, options, info.turnId);
        return { continue: false };
      }
      const why = options.mode === "nudge" ? "after the send_message note" : "(textReply: drop)";
      options.logger.info(`turn ${info.turnId} ended with plain text and no send_message ${why}; nothing reached the chat`);
      return undefined;
    },
    onTurnFinish() {
      sent = false;
      nudged = false;
    },
  };
}

async function deliver(text: string, options: TextReplyOptions, turnId: string): Promise<void> {
  try {
    const result = await options.sendMessage.execute!({ messages: [text], mode: "raw" }, { toolCallId: `text-reply-${turnId}`, messages: [], context: {} });
    if (isOk(result)) options.logger.info(`turn ${turnId}: plain-text reply sent through send_message (textReply: send)`);
    else options.logger.warn(`turn ${turnId}: plain-text reply not sent: ${JSON.stringify((result as { error?: unknown }).error)}`);
  } catch (error) {
    options.logger.warn(`turn ${turnId}: plain-text reply not sent: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The step's assistant text parts, joined and trimmed; reasoning is not a reply. */
function assistantText(messages: readonly AgentMessage[]): string {
  const texts: string[] = [];
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    if (typeof message.content === "string") texts.push(message.content);
    else for (const part of message.content) if (part.type === "text") texts.push(part.text);
  }
  return texts.join("").trim();
}

function isOk(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === true;
}
