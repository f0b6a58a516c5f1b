/**
 * Raised while building the gateway or resolving a reference (spec 02 GW-25). Errors from model calls are
 * never wrapped in it: they pass through unchanged so callers can inspect the provider's own error.
 */
export class GatewayError extends Error {
  override readonly name = "GatewayError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
