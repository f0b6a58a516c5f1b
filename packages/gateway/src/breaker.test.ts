import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CircuitBreaker } from "./breaker.js";

describe("circuit breaker", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("GW-18 threshold 2 / cooldown 60: open at 2 failures, open at 59,999 ms, half-open at 60,000 ms", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownSeconds: 60 });
    breaker.failure();
    expect(breaker.status()).toEqual({ state: "closed", failures: 1 });
    breaker.failure();
    expect(breaker.state).toBe("open");
    vi.advanceTimersByTime(59_999);
    expect(breaker.state).toBe("open");
    vi.advanceTimersByTime(1);
    expect(breaker.state).toBe("half-open");
  });

  it("GW-18 GW-17 threshold 0 / cooldown -5 are clamped: one failure gives half-open at once", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 0, cooldownSeconds: -5 });
    breaker.failure();
    expect(breaker.status()).toEqual({ state: "half-open", failures: 1 });
  });

  it("GW-17 defaults are threshold 3 and cooldown 60 s", () => {
    const breaker = new CircuitBreaker(undefined);
    breaker.failure();
    breaker.failure();
    expect(breaker.state).toBe("closed");
    breaker.failure();
    expect(breaker.state).toBe("open");
    vi.advanceTimersByTime(60_000);
    expect(breaker.state).toBe("half-open");
  });

  it("GW-17 a failure at or above the threshold restarts the cooldown; success closes with 0 failures", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownSeconds: 10 });
    breaker.failure();
    vi.advanceTimersByTime(10_000);
    expect(breaker.state).toBe("half-open");
    breaker.failure();
    expect(breaker.state).toBe("open");
    vi.advanceTimersByTime(9_999);
    expect(breaker.state).toBe("open");
    breaker.success();
    expect(breaker.status()).toEqual({ state: "closed", failures: 0 });
  });
});
