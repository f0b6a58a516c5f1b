import { createUserMessage, type AgentMessage } from "@yesimagent/core";
import type { RuntimeDomain } from "../../extension/index.js";
import { channelHead, formatAuthor, formatStamp, renderDeleted } from "../shared/index.js";
import { mediaMention, renderAction, renderObservation, type V3Output } from "../shared/v3-blocks.js";

const NOTHING_PROCESSED = "(Nothing yet: you have not acted in this window.)";
const NOTHING_NEW = "(No new events since your last action.)";
const NO_USERS = "(No one has spoken in this window.)";

/**
 * The v3 world state (spec 06 EN-19): the whole window as one user message — `<channel>` with `<users>` and
 * `<working_memory>`, split at the last assistant message into `<processed_events>` and `<new_events>`.
 * System messages stay in front; attachment and catalog messages follow the world state, in order (EN-8).
 * Other custom messages are not shown.
 */
export function renderWorldState(messages: readonly AgentMessage[], domain: RuntimeDomain): AgentMessage[] {
  if (messages.length === 0) return [];
  const front: AgentMessage[] = [];
  const after: AgentMessage[] = [];
  const lines: string[][] = [];
  const users = new Map<string, string>();
  const names = new Map<string, string>();
  let lastAssistant = -1;
  let lastChannel: string | undefined;

  for (const message of messages) {
    const out: string[] = [];
    switch (message.role) {
      case "system":
        front.push(message);
        continue;
      case "custom":
        if (message.type === "ishiki.attachment" || message.type === "ishiki.tools.catalog") after.push(message);
        else if (message.type === "ishiki.message.created" || message.type === "ishiki.message.deleted") {
          const head = channelHead(message.data);
          if (domain.mode === "cross" && head !== lastChannel) out.push(head);
          lastChannel = head;
          if (message.type === "ishiki.message.created") {
            const { user, messageId, timestamp, content } = message.data;
            users.set(user.id, user.name);
            if (user.name) names.set(user.id, user.name);
            out.push(`<message>[${messageId}|${formatStamp(timestamp)}|${formatAuthor(user)}] ${content}</message>`);
          } else out.push(systemEvent(message.data.timestamp, renderDeleted(message.data, names)));
        }
        break;
      case "user":
        out.push(systemEvent(message.timestamp, typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : mediaMention(part))).join("\n")));
        break;
      case "assistant":
        lastAssistant = lines.length;
        for (const part of typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content) {
          if (part.type === "text" && part.text.trim() !== "") out.push(`<assistant>[${formatStamp(message.timestamp)}|You] ${part.text}</assistant>`);
          else if (part.type === "tool-call") out.push(renderAction({ toolName: part.toolName, input: part.input }));
          else if (part.type === "tool-result") out.push(renderObservation({ toolName: part.toolName, toolCallId: part.toolCallId, output: part.output as V3Output }));
        }
        break;
      case "tool":
        for (const part of message.content) if (part.type === "tool-result") out.push(renderObservation({ toolName: part.toolName, toolCallId: part.toolCallId, output: part.output as V3Output }));
        break;
    }
    lines.push(out);
  }

  const processed = lines.slice(0, lastAssistant + 1).flat();
  const fresh = lines.slice(lastAssistant + 1).flat();
  const userLines = [...users].map(([id, name]) => `<user id="${id}">${name || id}</user>`);
  const text = [
    channelTag(domain),
    "<users>",
    ...(userLines.length > 0 ? userLines : [NO_USERS]),
    "</users>",
    "<working_memory>",
    "<processed_events>",
    ...(processed.length > 0 ? processed : [NOTHING_PROCESSED]),
    "</processed_events>",
    "<new_events>",
    ...(fresh.length > 0 ? fresh : [NOTHING_NEW]),
    "</new_events>",
    "</working_memory>",
    "</channel>",
  ].join("\n");
  const last = messages[messages.length - 1];
  return [...front, createUserMessage(text, { id: `${last.id}#world-state`, timestamp: last.timestamp }), ...after];
}

function systemEvent(timestamp: number, text: string): string {
  return `<system_event>[${formatStamp(timestamp)}|System] ${text}</system_event>`;
}

function channelTag(domain: RuntimeDomain): string {
  if (domain.mode === "cross") return `<channel id="*" type="cross" platform="${Object.keys(domain.accounts).join(",")}">`;
  return `<channel id="${domain.channelId}" type="${domain.isDirect ? "private" : "guild"}" platform="${domain.platform}">`;
}
