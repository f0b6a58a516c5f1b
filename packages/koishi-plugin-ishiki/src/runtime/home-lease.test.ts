import { afterEach, describe, expect, it, vi } from "vitest";
import { LEASE_WAIT_WARN_MS, leaseHome, runtimesStopped } from "./home-lease.js";

afterEach(() => vi.useRealTimers());

describe("home leases (AG-10)", () => {
  it("AG-10 a second runtime of a home waits for the first one's release, and says so when the wait is long", async () => {
    vi.useFakeTimers();
    const release = await leaseHome("/data/runtimes/a");
    const waits: string[] = [];
    let second: (() => void) | undefined;
    const pending = leaseHome("/data/runtimes/../runtimes/a", () => waits.push("waiting")).then((value) => (second = value));
    const other = await leaseHome("/data/runtimes/b");
    await vi.advanceTimersByTimeAsync(LEASE_WAIT_WARN_MS - 1);
    expect(waits).toEqual([]);
    expect(second).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(waits).toEqual(["waiting"]);
    release();
    await pending;
    expect(second).toBeTypeOf("function");
    let stopped = false;
    const all = runtimesStopped().then(() => (stopped = true));
    other();
    await Promise.resolve();
    expect(stopped).toBe(false);
    second!();
    await all;
    expect(stopped).toBe(true);
  });

  it("AG-10 three creations of one home take it one after another", async () => {
    const order: string[] = [];
    const first = await leaseHome("/data/runtimes/c");
    const next = [1, 2].map((n) => leaseHome("/data/runtimes/c").then((release) => (order.push(`got ${n}`), release)));
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    const one = await next[0];
    await Promise.resolve();
    expect(order).toEqual(["got 1"]);
    one();
    const two = await next[1];
    expect(order).toEqual(["got 1", "got 2"]);
    two();
    await runtimesStopped();
  });
});
