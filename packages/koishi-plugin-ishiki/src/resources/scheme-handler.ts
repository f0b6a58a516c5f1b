import type { ResourcePayload } from "./payload.js";

/**
 * Resolves every URL of one scheme in one runtime's ResourceCenter (RS-14). The center routes by scheme and
 * passes the URL verbatim: the handler interprets authority, path, query and fragment itself. Fail with a
 * `ResourceError`; anything else thrown is wrapped as `resource_read_failed`. Register it with
 * `resources.attach(handler)` and call the returned disposer before the runtime stops.
 */
export interface SchemeHandler {
  /** Lower-case scheme name, the part before `://`. */
  readonly scheme: string;
  resolve(url: string, options?: { signal?: AbortSignal }): ResourcePayload | Promise<ResourcePayload>;
}
