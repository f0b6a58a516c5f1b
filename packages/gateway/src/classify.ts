import { APICallError } from "@ai-sdk/provider";
import { upstreamMessage } from "./call-error.js";

/**
 * `unavailable`: the endpoint could not serve the call, another may (record a failure, try the next);
 * `rejected`: the request itself was refused, so another endpoint would likely refuse it too.
 */
export type FailureClass = "unavailable" | "rejected";

const UNAVAILABLE_CLIENT_STATUSES = new Set([401, 403, 404, 408, 409, 429]);

/** Spec 02 GW-22. Aborts are not classified here: the caller's signal decides those. */
export function classifyFailure(error: unknown): FailureClass {
  if (!APICallError.isInstance(error)) return "unavailable";
  const status = error.statusCode;
  if (error.isRetryable || status === undefined) return "unavailable";
  return status >= 400 && status < 500 && !UNAVAILABLE_CLIENT_STATUSES.has(status) ? "rejected" : "unavailable";
}

const MAX_MESSAGE = 200;

/**
 * One line for logs that name the candidate themselves: the HTTP status when there is one and the provider's
 * own message, capped at 200 characters (QA-20).
 */
export function describeFailure(error: unknown): string {
  const message = upstreamMessage(error) ?? (error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error));
  const status = APICallError.isInstance(error) && error.statusCode !== undefined ? `HTTP ${error.statusCode}: ` : "";
  const line = `${status}${message}`.replace(/\s+/g, " ").trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}
