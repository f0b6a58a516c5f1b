const MAX_BACKOFF_MS = 8000;

/** Delay before retry `n` (1-based): `min(base × 2^(n−1), 8000)` with half jitter (spec 02 GW-21). */
export function backoffDelay(retry: number, baseMs: number, random: () => number = Math.random): number {
  const full = Math.min(Math.max(0, baseMs) * 2 ** (retry - 1), MAX_BACKOFF_MS);
  return Math.round(full / 2 + (random() * full) / 2);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
