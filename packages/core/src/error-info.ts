import type { AgentErrorInfo } from "./event.js";
import { ToolError } from "./errors.js";

/** The serialised form of a failure in `turn.failed`, `tool.failed` and `TurnResult` (AG-41). */
export function toErrorInfo(error: unknown): AgentErrorInfo {
  if (error instanceof Error) {
    const info: AgentErrorInfo = { name: error.name, message: error.message };
    if (error.cause !== undefined) info.cause = String(error.cause);
    if (error.stack !== undefined) info.stack = error.stack;
    return info;
  }
  return { name: "Error", message: typeof error === "string" ? error : safeJson(error) };
}

/**
 * The text a model sees for a failed tool call (AG-46): a `ToolError` shows exactly its message; any other
 * error shows `<name>: <message>`, or `<name> [<code>]: <message>` when it has a string `code`.
 */
export function toolErrorText(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${error.name} [${code}]: ${error.message}` : `${error.name}: ${error.message}`;
  }
  return typeof error === "string" ? error : safeJson(error);
}

/**
 * Carries a finished error text through the AI SDK, which renders a thrown Error with `toString()` into the
 * `error-text` result: this one renders as exactly its message.
 */
export class ToolErrorText extends Error {
  override name = "ToolErrorText";

  override toString(): string {
    return this.message;
  }
}

export function isAbortError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

export function abortError(reason?: string): DOMException {
  return new DOMException(reason ?? "The operation was aborted.", "AbortError");
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
