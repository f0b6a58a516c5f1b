import { describe, expect, it } from "vitest";
import { backoffDelay, sleep } from "./backoff.js";

describe("backoff", () => {
  it("GW-21 min(base × 2^(n−1), 8000) with half jitter", () => {
    expect(backoffDelay(1, 500, () => 0)).toBe(250);
    expect(backoffDelay(1, 500, () => 1)).toBe(500);
    expect(backoffDelay(2, 500, () => 0)).toBe(500);
    expect(backoffDelay(3, 500, () => 0.5)).toBe(1500);
    expect(backoffDelay(10, 500, () => 0)).toBe(4000);
    expect(backoffDelay(10, 500, () => 1)).toBe(8000);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelay(2, 500);
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThanOrEqual(1000);
    }
  });

  it("GW-21 the wait is abort-aware", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
