import type { AgentEntry, AgentMessage } from "@yesimagent/core";
import type { IshikiAttachment, IshikiToolsCatalog } from "../../types/index.js";
import { renderCreated, renderDeleted } from "../shared/index.js";

/**
 * What one image or file part weighs in the budget, in chars: media cost tokens unrelated to their size in
 * the prompt text, and a rough constant keeps a window of screenshots from passing as empty.
 */
export const MEDIA_PART_CHARS = 1000;

const noNames: ReadonlyMap<string, string> = new Map();

/**
 * The chars an entry adds to the rendered prompt (spec 06 EN-13): facts as their default line (EN-10), catalogs
 * as their text, other messages by their text, tool inputs and outputs. Non-message entries and unknown custom
 * types are not shown (EN-8) and weigh nothing.
 */
export function entryChars(entry: AgentEntry): number {
  return entry.type === "message" ? messageChars(entry.data) : 0;
}

export function messageChars(message: AgentMessage): number {
  switch (message.role) {
    case "custom":
      return customChars(message.type, message.data);
    case "system":
      return message.content.length;
    case "user":
    case "assistant":
    case "tool":
      return typeof message.content === "string" ? message.content.length : partsChars(message.content as readonly ContentPart[]);
  }
}

function customChars(type: string, data: unknown): number {
  switch (type) {
    case "ishiki.message.created":
      return renderCreated(data as Parameters<typeof renderCreated>[0]).length + 1;
    case "ishiki.message.deleted":
      return renderDeleted(data as Parameters<typeof renderDeleted>[0], noNames).length + 1;
    case "ishiki.tools.catalog":
      return (data as IshikiToolsCatalog).text.length;
    case "ishiki.attachment":
      return (data as IshikiAttachment).items.length * MEDIA_PART_CHARS;
    default:
      return 0;
  }
}

/** The parts of user, assistant and tool contents, loosely typed: only their text-bearing fields matter here. */
interface ContentPart {
  type: string;
  text?: string;
  toolName?: string;
  input?: unknown;
  output?: ToolOutput;
}

type ToolOutput = { type: string; value?: unknown; reason?: string };

function partsChars(parts: readonly ContentPart[]): number {
  let chars = 0;
  for (const part of parts) {
    if (part.type === "text" || part.type === "reasoning") chars += part.text?.length ?? 0;
    else if (part.type === "tool-call") chars += (part.toolName?.length ?? 0) + jsonChars(part.input);
    else if (part.type === "tool-result") chars += (part.toolName?.length ?? 0) + outputChars(part.output);
    else if (part.type === "image" || part.type === "file") chars += MEDIA_PART_CHARS;
  }
  return chars;
}

function outputChars(output: ToolOutput | undefined): number {
  if (output === undefined) return 0;
  if (output.type === "text" || output.type === "error-text") return typeof output.value === "string" ? output.value.length : 0;
  if (output.type === "execution-denied") return output.reason?.length ?? 0;
  if (output.type === "content" && Array.isArray(output.value)) return partsChars(output.value as ContentPart[]);
  return jsonChars(output.value);
}

function jsonChars(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === "string") return value.length;
  return JSON.stringify(value)?.length ?? 0;
}
