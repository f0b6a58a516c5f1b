import type { ToolResultPart } from "ai";
import type { AgentMessage } from "@yesimagent/core";
import type { IshikiMessageCreated } from "../../types/index.js";
import { channelHead, formatAuthor, renderDeleted } from "../shared/index.js";

/** One prose line of the story; `channel` is the channel head it belongs to, when it belongs to one. */
export interface StoryLine {
  timestamp: number;
  channel?: string;
  text: string;
}

const QUOTE_LIMIT = 100;

/**
 * The story lines of one message (spec 06 EN-21): chat facts and retractions, what the bot said through
 * `send_message`, and each other tool it used with its result on one line. Reasoning, `finish` and successful
 * sends' results add nothing; a user message (a wake prompt) becomes a note to the bot.
 */
export function storyLines(message: AgentMessage, names: ReadonlyMap<string, string>): StoryLine[] {
  const at = (text: string, channel?: string): StoryLine => ({ timestamp: message.timestamp, text, ...(channel === undefined ? {} : { channel }) });
  switch (message.role) {
    case "custom":
      if (message.type === "ishiki.message.created") return [at(says(message.data), channelHead(message.data))];
      if (message.type === "ishiki.message.deleted") return [at(renderDeleted(message.data, names), channelHead(message.data))];
      return [];
    case "user": {
      const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return text.trim() === "" ? [] : [at(`Note to you: ${oneLine(text)}`)];
    }
    case "assistant": {
      if (typeof message.content === "string") return message.content.trim() === "" ? [] : [at(`You noted privately: "${message.content.trim()}"`)];
      const lines: StoryLine[] = [];
      for (const part of message.content) {
        if (part.type === "text" && part.text.trim() !== "") lines.push(at(`You noted privately: "${part.text.trim()}"`));
        if (part.type === "tool-call" && part.toolName === "send_message") lines.push(...said(part.input).map(({ text, channel }) => at(text, channel)));
      }
      return lines;
    }
    case "tool":
      return message.content.flatMap((part) => {
        if (part.type !== "tool-result") return [];
        const line = usedLine(part);
        return line === undefined ? [] : [at(line)];
      });
    default:
      return [];
  }
}

/** The authors named by the facts of a window, id → name, for retractions and the cast. */
export function authorNames(messages: readonly AgentMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "custom" || message.type !== "ishiki.message.created") continue;
    const { user, quote } = message.data;
    if (quote?.user?.name) names.set(quote.user.id, quote.user.name);
    if (user.name) names.set(user.id, user.name);
  }
  return names;
}

function says(fact: IshikiMessageCreated): string {
  const author = formatAuthor(fact.user);
  if (fact.quote === undefined) return `${author} says: "${fact.content}"`;
  const quoted = fact.quote.user === undefined ? "a message" : fact.quote.user.id === fact.selfId ? "you" : formatAuthor(fact.quote.user);
  const snippet = oneLine(fact.quote.content);
  const cut = snippet.length > QUOTE_LIMIT ? `${snippet.slice(0, QUOTE_LIMIT)}…` : snippet;
  return `${author}, replying to ${quoted} ("${cut}"), says: "${fact.content}"`;
}

function said(input: unknown): Array<{ text: string; channel?: string }> {
  const { messages, target } = (typeof input === "object" && input !== null ? input : {}) as { messages?: unknown; target?: { sid?: unknown; channelId?: unknown } };
  if (!Array.isArray(messages)) return [];
  const channel = typeof target?.sid === "string" && typeof target.channelId === "string" ? `[#${target.sid}/${target.channelId}]` : undefined;
  return messages.filter((text): text is string => typeof text === "string").map((text) => ({ text: `You said: "${text}"`, ...(channel === undefined ? {} : { channel }) }));
}

function usedLine(part: ToolResultPart): string | undefined {
  if (part.toolName === "finish") return undefined;
  const result = resultText(part.output);
  if (part.toolName !== "send_message") return `You used ${part.toolName}: ${result}`;
  const value = parseJson(result);
  const failed = part.output.type.startsWith("error") || (typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false);
  return failed ? `Your message could not be sent: ${result}` : undefined;
}

/** A tool result on one line: text as is, JSON compact, media by type; nothing is cut (the exit already paged it). */
function resultText(output: ToolResultPart["output"]): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return oneLine(output.value);
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return `denied${output.reason === undefined ? "" : ` (${oneLine(output.reason)})`}`;
    case "content":
      return oneLine(output.value.map((item) => (item.type === "text" ? item.text : `[${"mediaType" in item && item.mediaType ? item.mediaType : item.type}]`)).join(" "));
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
