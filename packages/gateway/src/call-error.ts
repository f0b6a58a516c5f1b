import { APICallError } from "@ai-sdk/provider";

const UPSTREAM = Symbol.for("ishiki.gateway.upstream");
const MAX_UPSTREAM = 300;

/**
 * Gives a provider's HTTP error one line that says what failed (issue 20): `HTTP <status> from "<ref>":
 * <upstream message>`. The error keeps its class and fields, so callers can still inspect it (GW-25); only its
 * message gains the status and the model, once, however many layers it passes. Errors without a status
 * (network failures) already say what they are and stay as they are.
 */
export function labelCallError(error: unknown, ref: string): unknown {
  if (!APICallError.isInstance(error) || error.statusCode === undefined || upstreamMessage(error) !== undefined) return error;
  const upstream = (error.message || error.responseBody || "").replace(/\s+/g, " ").trim();
  Object.defineProperty(error, UPSTREAM, { value: upstream });
  const text = upstream.length > MAX_UPSTREAM ? `${upstream.slice(0, MAX_UPSTREAM - 1)}…` : upstream;
  error.message = `HTTP ${error.statusCode} from "${ref}": ${text || "(no message)"}`;
  return error;
}

/** The provider's own message of a labelled error, for lines that name the model themselves. */
export function upstreamMessage(error: unknown): string | undefined {
  return typeof error === "object" && error !== null ? (error as { [UPSTREAM]?: string })[UPSTREAM] : undefined;
}
