/** Headers whose values never reach a dump (spec 02 GW-29). */
export const REDACTED_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "x-api-key",
  "api-key",
  "x-goog-api-key",
  "proxy-authorization",
]);

export const REDACTED = "<redacted>";

// Shorter values would blank out ordinary words; real keys and tokens are longer.
const MIN_SECRET_LENGTH = 4;

/** Replaces every known secret in `text`; `secrets` is read at call time, so it may grow later. */
export function createRedactor(secrets: ReadonlySet<string>): (text: string) => string {
  return (text) => {
    let result = text;
    for (const secret of secrets) {
      if (secret.length >= MIN_SECRET_LENGTH) result = result.split(secret).join(REDACTED);
    }
    return result;
  };
}
