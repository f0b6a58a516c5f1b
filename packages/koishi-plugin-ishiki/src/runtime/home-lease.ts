import { resolve } from "node:path";

/** How long a new runtime waits for the previous one of its home before it says so. */
export const LEASE_WAIT_WARN_MS = 10_000;

/**
 * Process-wide: each runtime home in use, with the end of its runtime's teardown. Koishi does not await a
 * plugin's dispose listeners, so a fast reload (or a re-created runtime after eviction) could otherwise start a
 * second writer on an events.jsonl the stopping runtime still appends to (spec 01 AG-10). Module state on
 * purpose: every kernel instance of the process shares it.
 */
const leases = new Map<string, Promise<void>>();

/**
 * Waits until no runtime holds `home`, then holds it; the returned release must run as the last step of the
 * holder's teardown. `waiting` is called once if the wait passes `LEASE_WAIT_WARN_MS` (a teardown that hangs
 * would otherwise leave the channel silent without a word).
 */
export async function leaseHome(home: string, waiting?: () => void): Promise<() => void> {
  const key = resolve(home);
  if (leases.has(key)) {
    const timer = setTimeout(() => waiting?.(), LEASE_WAIT_WARN_MS);
    timer.unref?.();
    try {
      for (let held = leases.get(key); held !== undefined; held = leases.get(key)) await held;
    } finally {
      clearTimeout(timer);
    }
  }
  let release!: () => void;
  leases.set(key, new Promise<void>((done) => (release = done)));
  return () => {
    leases.delete(key);
    release();
  };
}

/** Resolves once every runtime of the process has finished its teardown (for an embedder's or a test's shutdown). */
export async function runtimesStopped(): Promise<void> {
  while (leases.size > 0) await Promise.all(leases.values());
}
