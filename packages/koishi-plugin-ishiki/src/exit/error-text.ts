import { ToolError } from "@yesimagent/core";

/** Error texts shown to the model are cut at this many UTF-16 units (04 EX-9). */
export const ERROR_TEXT_UNITS = 30_000;

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

/** Cuts an error text over the budget, never inside a surrogate pair, and says how much was left out (EX-9). */
export function cutErrorText(text: string): string {
  if (text.length <= ERROR_TEXT_UNITS) return text;
  // The note's digits depend on the cut; the longest possible note keeps the result inside the budget.
  const room = ERROR_TEXT_UNITS - note(text.length).length - 1;
  let cut = room;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}\n${note(text.length - cut)}`;
}

function note(omitted: number): string {
  return `[error text truncated: ${omitted} more characters]`;
}
