import type { AgentMessage, StepFinishDecision, StepFinishInfo } from "@yesimagent/core";

interface DirectCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/**
 * The stop rule (spec 06 EN-44), on the step's direct calls only: `finish` or `wait` → stop; else only
 * `send_message` calls, none with `continue: true`, every result `ok: true` → stop; else any other call →
 * continue; no calls → the agent's default.
 */
export function stopRule(info: StepFinishInfo): StepFinishDecision | undefined {
  const calls = directCalls(info.result.messages);
  if (calls.length === 0) return undefined;
  if (calls.some((call) => call.toolName === "finish" || call.toolName === "wait")) return { continue: false };
  if (calls.every((call) => call.toolName === "send_message")) {
    const results = resultValues(info.result.messages);
    const done = calls.every((call) => !keepsGoing(call.input) && isOk(results.get(call.toolCallId)));
    return done ? { continue: false } : undefined;
  }
  return { continue: true };
}

function directCalls(messages: readonly AgentMessage[]): DirectCall[] {
  const calls: DirectCall[] = [];
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) if (part.type === "tool-call") calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
  }
  return calls;
}

/** Each result as the JSON value it carries, whatever display the exit gave it; errors map to undefined. */
function resultValues(messages: readonly AgentMessage[]): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output;
      if (output.type === "json") values.set(part.toolCallId, output.value);
      else if (output.type === "text") values.set(part.toolCallId, parseJson(output.value));
      else if (output.type === "content") {
        const text = output.value.find((item) => item.type === "text");
        values.set(part.toolCallId, text?.type === "text" ? parseJson(text.text) : undefined);
      }
    }
  }
  return values;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function keepsGoing(input: unknown): boolean {
  return typeof input === "object" && input !== null && (input as { continue?: unknown }).continue === true;
}

function isOk(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === true;
}
