import { systemErrorText } from "./system-error.js";

/** The six stable codes a resource read can fail with (spec 03 RS-16). */
export type ResourceErrorCode =
  | "invalid_resource_uri"
  | "unsupported_view"
  | "resource_unavailable"
  | "resource_not_found"
  | "resource_too_large"
  | "resource_read_failed";

/**
 * A resource read failure with a stable `code`. Messages are one line, `<subject>: <reason>[; <hint>]`, and
 * never contain host paths outside the runtime home or bytes of the resource.
 */
export class ResourceError extends Error {
  public override readonly name = "ResourceError";
  public readonly code: ResourceErrorCode;

  public constructor(code: ResourceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Wraps anything a handler threw that is not a ResourceError, keeping the original as `cause` (RS-16). */
export function wrapHandlerError(scheme: string, error: unknown): ResourceError {
  if (error instanceof ResourceError) return error;
  const name = error instanceof Error ? error.name : typeof error;
  // Node's system errors carry host paths; the model sees only the code and the reason.
  const message = systemErrorText(error) ?? (error instanceof Error ? error.message : String(error));
  return new ResourceError("resource_read_failed", `${scheme} handler failed: ${name}: ${message}`, { cause: error });
}
