/** Bytes inspected for binary detection (RS-19). */
export const BINARY_PROBE_BYTES = 8 * 1024;

/**
 * Whether a file's first bytes mark it binary: a NUL, or invalid UTF-8. A sequence cut by the end of the
 * probe is not invalid unless the probe holds the `complete` file, since the rest of it may lie beyond.
 */
export function looksBinary(prefix: Uint8Array, complete = false): boolean {
  const probe = prefix.subarray(0, BINARY_PROBE_BYTES);
  if (probe.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(probe, { stream: !complete || prefix.length > BINARY_PROBE_BYTES });
    return false;
  } catch {
    return true;
  }
}
