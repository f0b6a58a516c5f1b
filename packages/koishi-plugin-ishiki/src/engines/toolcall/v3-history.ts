import type { LanguageModelV4FilePart, LanguageModelV4Message, LanguageModelV4Prompt, LanguageModelV4TextPart } from "@ai-sdk/provider";
import { renderAction, renderObservation, type V3Output } from "../shared/v3-blocks.js";
import { invalidInputOf } from "./invalid-input.js";
import { readAction } from "./v3-parse.js";

type UserPart = LanguageModelV4TextPart | LanguageModelV4FilePart;

/**
 * The prompt in v3 shape (spec 06 EN-41): the contract and catalog appended to the system message, tool calls
 * as `<action>` text in the assistant's message, each tool message as a user message of `<observation>` blocks
 * whose media stay file parts after them. User messages (attachments, file parts) pass unchanged.
 */
export function rewriteV3Prompt(prompt: LanguageModelV4Prompt, system: string): LanguageModelV4Prompt {
  // The `<action>` markup of every invalid call, by call id: the history keeps such calls with an empty input.
  const invalid = new Map<string, string>();
  for (const message of prompt) {
    if (message.role !== "tool" && message.role !== "assistant") continue;
    for (const part of message.content) {
      const raw = part.type === "tool-result" ? invalidInputOf(part.output) : undefined;
      if (part.type === "tool-result" && raw?.startsWith("<action>") === true) invalid.set(part.toolCallId, raw);
    }
  }
  const out: LanguageModelV4Prompt = prompt.map((message) => rewriteMessage(message, invalid));
  const index = out.findIndex((message) => message.role === "system");
  if (index < 0) return [{ role: "system", content: system }, ...out];
  const base = out[index] as Extract<LanguageModelV4Message, { role: "system" }>;
  out[index] = { ...base, content: `${base.content}\n\n${system}` };
  return out;
}

function rewriteMessage(message: LanguageModelV4Message, invalid: ReadonlyMap<string, string>): LanguageModelV4Message {
  if (message.role === "assistant") {
    if (!message.content.some((part) => part.type === "tool-call" || part.type === "tool-result")) return message;
    const content = message.content.map((part) => {
      if (part.type === "tool-call") return { type: "text" as const, text: invalid.get(part.toolCallId) ?? renderAction({ toolName: part.toolName, input: part.input }) };
      if (part.type === "tool-result") return { type: "text" as const, text: renderObservation({ toolName: part.toolName, toolCallId: part.toolCallId, output: part.output as V3Output }) };
      return part;
    });
    return { ...message, content };
  }
  if (message.role !== "tool") return message;
  const content: UserPart[] = [];
  for (const part of message.content) {
    if (part.type !== "tool-result") continue;
    const files: LanguageModelV4FilePart[] = part.output.type === "content" ? part.output.value.flatMap((item) => (item.type === "file" ? [{ type: "file" as const, data: item.data, mediaType: item.mediaType, ...(item.filename === undefined ? {} : { filename: item.filename }) }] : [])) : [];
    const output = invalidOutput(part.toolName, invalid.get(part.toolCallId), part.output as V3Output) ?? (part.output as V3Output);
    content.push({ type: "text", text: renderObservation({ toolName: part.toolName, toolCallId: part.toolCallId, output }, files.length > 0 ? "(attached below)" : undefined) }, ...files);
  }
  return { role: "user", content: content.length > 0 ? content : [{ type: "text", text: "<observation>(no result)</observation>" }] };
}

/** The error of an invalid action, told as its defect and the expected shape instead of the SDK's parse error. */
function invalidOutput(toolName: string, markup: string | undefined, output: V3Output): V3Output | undefined {
  if (markup === undefined || (output.type !== "error-text" && output.type !== "error-json")) return undefined;
  let action: ReturnType<typeof readAction>[number] | undefined;
  try {
    action = readAction(JSON.parse(markup.slice("<action>".length, -"</action>".length)))[0];
  } catch {
    return undefined;
  }
  if (action === undefined || !("defect" in action)) return undefined;
  return { type: "error-text", value: `Invalid action on ${toolName}: ${action.defect}. Expected format: {"function": "${toolName}", "params": {"<parameter>": <value>}}` };
}
