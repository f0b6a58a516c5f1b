import { APICallError } from "@ai-sdk/provider";

/**
 * How long the endpoint asked to be left alone, from a failed call's `Retry-After` (seconds or an HTTP date) or
 * `retry-after-ms` response header; undefined when it did not say. `now` is the clock dates are read against.
 */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  if (!APICallError.isInstance(error) || !error.responseHeaders) return undefined;
  const headers = Object.fromEntries(Object.entries(error.responseHeaders).map(([name, value]) => [name.toLowerCase(), value]));
  const ms = Number(headers["retry-after-ms"]);
  if (headers["retry-after-ms"] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers["retry-after"]?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
