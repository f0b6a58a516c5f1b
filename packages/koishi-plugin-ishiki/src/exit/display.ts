import type { JSONValue } from "@ai-sdk/provider";
import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { Tool } from "ai";
import type { IshikiAttachmentItem, IshikiAttachmentLifetime } from "../types/index.js";
import { archiveMedia, ArchiveError, type ArchiveScope } from "./archive.js";
import { cutErrorText } from "./error-text.js";
import type { ExitContext } from "./exit-context.js";
import { extractMedia } from "./extract.js";
import { ResultJsonError } from "./json.js";
import { displayJson, isStackOverflow } from "./json-display.js";
import { isRawReadText } from "./media-node.js";
import { replaceProgramAttachments } from "./program-attachments.js";
import { budgetText, fitsPage, pageOnSource } from "./text-budget.js";

/** One finished tool call as the AI SDK hands it to `toModelOutput`. */
export interface ExitCall {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
  readonly output: unknown;
}

const LIFETIMES: readonly string[] = ["once", "recent", "retain"];

/** Direct `read` may choose its items' lifetime when image input is on (EX-21, EX-22); everything else is `once`. */
function directLifetime(context: ExitContext, call: ExitCall): IshikiAttachmentLifetime {
  const lifetime = (call.input as { lifetime?: unknown } | undefined)?.lifetime;
  return call.toolName === "read" && context.imageInput && LIFETIMES.includes(lifetime as string) ? (lifetime as IshikiAttachmentLifetime) : "once";
}

function defaultDisplay(output: unknown): ToolResultOutput {
  return typeof output === "string" ? { type: "text", value: output } : { type: "json", value: output as JSONValue };
}

/** Steps 5-6 of EX-2: shaping, JSON normalisation and the text budget. */
async function shape(scope: ArchiveScope, display: ToolResultOutput): Promise<ToolResultOutput> {
  if (display.type === "text") return { ...display, value: await budgetText(scope, display.value, { mediaType: "text/plain" }) };
  if (display.type === "json") {
    const value: unknown = display.value;
    if (typeof value === "string") return { type: "text", value: await budgetText(scope, value, { mediaType: "text/plain" }) };
    if (isRawReadText(value)) {
      const text = value.source ? pageOnSource(value.text, value.source, value.url) : await budgetText(scope, value.text, { mediaType: "text/plain" });
      return { type: "text", value: text };
    }
    return displayJson(scope, value);
  }
  if (display.type !== "content") return display;
  const joined = display.value.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  if (fitsPage(joined)) return display;
  const page = await budgetText(scope, joined, { mediaType: "application/json", blob: JSON.stringify(display.value), view: joined });
  return { type: "text", value: page };
}

/**
 * The unified exit for one call (04 EX-2): display conversion; error outputs stop there (cut to 2,000 lines or 30,000
 * units); media extraction (program tools: only their top-level `attachments`); archiving or reuse with
 * markers; shaping and JSON normalisation; the text budget; and the call's attachment record.
 */
export async function exitOutput(context: ExitContext, tool: Tool, call: ExitCall): Promise<ToolResultOutput> {
  const scope: ArchiveScope = { resources: context.resources, toolName: call.toolName, toolCallId: call.toolCallId };
  const items: IshikiAttachmentItem[] = [];
  const archive = async (media: Parameters<typeof archiveMedia>[1], lifetime: IshikiAttachmentLifetime): Promise<string> => {
    const archived = await archiveMedia(scope, media, lifetime);
    if (archived.item) items.push(archived.item);
    return archived.marker;
  };
  try {
    const program = (context.programTools ?? ["codemode"]).includes(call.toolName);
    const output = program ? await replaceProgramAttachments(call.output, archive) : call.output;
    const converted = tool.toModelOutput ? await tool.toModelOutput({ toolCallId: call.toolCallId, input: call.input, output }) : defaultDisplay(output);
    if (converted.type === "error-text") return { ...converted, value: cutErrorText(converted.value) };
    if (converted.type === "error-json" || converted.type === "execution-denied") return converted;
    const lifetime = directLifetime(context, call);
    const extracted = program ? converted : await extractMedia(converted, (media) => archive(media, lifetime));
    const display = await shape(scope, extracted);
    if (items.length > 0) context.appendAttachment({ source: "tool", toolName: call.toolName, toolCallId: call.toolCallId, items });
    return display;
  } catch (error) {
    if (error instanceof ArchiveError || error instanceof ResultJsonError) return { type: "error-text", value: cutErrorText(error.message) };
    // Media extraction and attachment replacement walk the value too; one nested past their stack is this
    // call's error, never the turn's (issue 16).
    if (isStackOverflow(error)) return { type: "error-text", value: "result cannot be displayed: it nests too deeply" };
    throw error;
  }
}
