import { createUserMessage, type AgentMessage } from "@yesimagent/core";
import { channelHead, renderCreated, renderDeleted } from "./fact-line.js";

export interface RenderFactsOptions {
  /** Cross mode: each run of lines from one channel starts with its head (EN-11). */
  cross: boolean;
}

/**
 * The default fact rendering (spec 06 EN-10, EN-11): every `ishiki.message.created` / `.deleted` custom message
 * still in the list becomes a line; adjacent lines merge into one user message; other messages pass unchanged.
 * The merged message keeps the id and timestamp of its first fact, so equal input renders equal output.
 */
export function renderFacts(messages: readonly AgentMessage[], options: RenderFactsOptions): AgentMessage[] {
  const names = new Map<string, string>();
  const output: AgentMessage[] = [];
  let lines: string[] = [];
  let first: AgentMessage | undefined;
  let lastChannel: string | undefined;

  const flush = (): void => {
    if (first === undefined) return;
    output.push(createUserMessage(lines.join("\n"), { id: first.id, timestamp: first.timestamp }));
    lines = [];
    first = undefined;
    lastChannel = undefined;
  };

  for (const message of messages) {
    if (message.role !== "custom" || (message.type !== "ishiki.message.created" && message.type !== "ishiki.message.deleted")) {
      flush();
      output.push(message);
      continue;
    }
    const fact = message.data;
    const channel = channelHead(fact);
    if (options.cross && channel !== lastChannel) lines.push(channel);
    lastChannel = channel;
    first ??= message;
    if (message.type === "ishiki.message.created") {
      const created = message.data;
      if (created.user.name) names.set(created.user.id, created.user.name);
      lines.push(renderCreated(created));
    } else {
      lines.push(renderDeleted(message.data, names));
    }
  }
  flush();
  return output;
}
