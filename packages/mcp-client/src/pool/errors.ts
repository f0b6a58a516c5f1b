import { SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/**
 * The SDK prefixes every `McpError` with `MCP error <code>: `, and an SDK server's error text already carries
 * that prefix, so a client sees it twice: keep one.
 */
export function errorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^(MCP error -?\d+: )(?:MCP error -?\d+: )+/, "$1");
}

/**
 * One line for a log or a tool error: the message, plus the HTTP status of a transport error and the network
 * cause `fetch` hides (`ECONNREFUSED`).
 */
export function describeError(error: unknown): string {
  const text = errorMessage(error).split("\n")[0];
  const status = (error instanceof StreamableHTTPError || error instanceof SseError) && typeof error.code === "number" ? error.code : undefined;
  const message = status === undefined ? text : `HTTP ${status}: ${text}`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const detail = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : undefined;
  return detail === undefined || message.includes(detail) ? message : `${message} (${detail})`;
}

/**
 * Whether an error a remote transport reports means the connection is gone, so every pending request on it
 * must fail now and a new session be made (the SDK's client never closes on these by itself):
 * - the server is unreachable (`fetch failed`) or a response stream broke (`SSE stream disconnected`, the
 *   SDK's own stream-resumption attempts failing);
 * - the session is unknown to the server: HTTP 404 (what the MCP spec prescribes) or a 400 naming the session
 *   (what several servers, the reference one included, answer after a restart);
 * - the legacy SSE stream failed.
 * A message that does not parse, or a server without a standalone GET stream, leaves the connection up.
 */
export function isConnectionLost(error: unknown): boolean {
  if (error instanceof SseError) return true;
  if (error instanceof StreamableHTTPError) {
    if (error.code === 404) return true;
    if (error.code === 400 && /session/i.test(error.message)) return true;
    return false;
  }
  if (!(error instanceof Error)) return false;
  if (error instanceof TypeError && error.message === "fetch failed") return true;
  return /^(SSE stream disconnected|Failed to reconnect SSE stream|Maximum reconnection attempts)/.test(error.message);
}
