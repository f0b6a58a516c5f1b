import { ToolError } from "@yesimagent/core";
import { PAGE_LINES, PAGE_UNITS } from "../resources/index.js";

/**
 * The text the agent shows for a thrown tool error (01 AG-46): a `ToolError` exactly its message, otherwise
 * `<name>: <message>` or `<name> [<code>]: <message>`.
 */
export function toolErrorText(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${error.name} [${code}]: ${error.message}` : `${error.name}: ${error.message}`;
  }
  return typeof error === "string" ? error : String(error);
}

/** Where the line budget ends a text: just before its `lines`-th `\n`, or `undefined` when it has fewer lines. */
function lineCut(text: string, lines: number): number | undefined {
  let seen = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) if (++seen === lines) return i;
  return undefined;
}

/**
 * Cuts an error text to the display budget every model-visible text shares (seed 000: 2,000 lines and 30,000
 * UTF-16 units, RS-36), never inside a surrogate pair, and says how much was left out (EX-9). A text within
 * both budgets is returned as it is; a cut one keeps the note as its last line, inside both budgets.
 */
export function cutErrorText(text: string): string {
  const byLines = lineCut(text, PAGE_LINES);
  if (text.length <= PAGE_UNITS && byLines === undefined) return text;
  // The note's digits depend on the cut; the longest possible note keeps the result inside the budget.
  let cut = Math.min(PAGE_UNITS - note(text.length).length - 1, byLines === undefined ? text.length : lineCut(text, PAGE_LINES - 1)!);
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}\n${note(text.length - cut)}`;
}

function note(omitted: number): string {
  return `[error text truncated: ${omitted} more characters]`;
}
