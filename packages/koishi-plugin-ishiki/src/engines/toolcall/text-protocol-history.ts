import type { LanguageModelV4FunctionTool, LanguageModelV4Message, LanguageModelV4Prompt, LanguageModelV4ToolResultPart } from "@ai-sdk/provider";
import type { ToolCatalog } from "./text-catalog.js";
import { invalidInputOf } from "./invalid-input.js";
import type { TextFormat } from "./text-protocol-formats.js";
import { ToolMarkupScanner } from "./text-scan.js";

type ToolOutput = LanguageModelV4ToolResultPart["output"];

/**
 * The prompt in a text protocol's shape (spec 06 EN-40): the contract and catalog appended to the system
 * message, each tool call as the protocol's markup in the assistant's text, each tool message as a user message
 * of `<tool_response>` blocks. A call that could not be read was sent with the model's markup as its input; the
 * history shows that markup again, and its error result becomes the defect, read again from the markup, plus
 * the expected format.
 */
export function rewriteTextPrompt(prompt: LanguageModelV4Prompt, format: TextFormat, tools: readonly LanguageModelV4FunctionTool[], catalog: ToolCatalog): LanguageModelV4Prompt {
  // The markup of every invalid call, by call id: the history keeps such calls with an empty input.
  const invalid = new Map<string, string>();
  for (const message of prompt) {
    if (message.role !== "tool" && message.role !== "assistant") continue;
    for (const part of message.content) {
      const raw = part.type === "tool-result" ? invalidInputOf(part.output) : undefined;
      if (part.type === "tool-result" && raw !== undefined) invalid.set(part.toolCallId, raw);
    }
  }
  const out = prompt.map((message): LanguageModelV4Message => {
    if (message.role === "assistant") {
      if (!message.content.some((part) => part.type === "tool-call" || part.type === "tool-result")) return message;
      const content = message.content.map((part) => {
        if (part.type === "tool-call") return { type: "text" as const, text: invalid.get(part.toolCallId) ?? callText(format, part.toolName, part.input) };
        if (part.type === "tool-result") return { type: "text" as const, text: format.result(part.toolName, resultText(format, catalog, part, invalid)) };
        return part;
      });
      return { ...message, content };
    }
    if (message.role !== "tool") return message;
    const results = message.content.flatMap((part) => (part.type === "tool-result" ? [format.result(part.toolName, resultText(format, catalog, part, invalid))] : []));
    return { role: "user", content: [{ type: "text", text: results.length > 0 ? results.join("\n") : "<tool_response>\n(no result)\n</tool_response>" }] };
  });
  const system = format.instructions(tools);
  const index = out.findIndex((message) => message.role === "system");
  if (index < 0) return [{ role: "system", content: system }, ...out];
  const base = out[index] as Extract<LanguageModelV4Message, { role: "system" }>;
  out[index] = { ...base, content: `${base.content}\n\n${system}` };
  return out;
}

function callText(format: TextFormat, toolName: string, input: unknown): string {
  const value = typeof input === "string" ? parsedObject(input) : input;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return format.call(toolName, value as Record<string, unknown>);
  // An invalid call: the model sees again exactly what it wrote.
  return typeof input === "string" ? input : format.call(toolName, {});
}

function resultText(format: TextFormat, catalog: ToolCatalog, part: LanguageModelV4ToolResultPart, invalid: ReadonlyMap<string, string>): string {
  const raw = invalid.get(part.toolCallId);
  if (raw !== undefined) {
    const defect = ToolMarkupScanner.scan(raw, catalog).find((event) => event.type === "invalid");
    if (defect?.type === "invalid") return `Invalid call to ${part.toolName}: ${defect.defect}. Expected format: ${format.example(part.toolName, catalog.schema(part.toolName))}`;
  }
  return outputText(part.output);
}

export function outputText(output: ToolOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return `execution denied${output.reason === undefined ? "" : `: ${output.reason}`}`;
    case "content":
      return output.value.map((item) => (item.type === "text" ? item.text : `[${"mediaType" in item ? item.mediaType : item.type}]`)).join("\n");
    default:
      return JSON.stringify(output);
  }
}

function parsedObject(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
