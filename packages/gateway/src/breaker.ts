import type { CircuitBreakerConfig } from "./config.js";
import type { BreakerState, BreakerStatus } from "./model-group.js";

/** The counters of one breaker; kept across `reconfigure` for references a group keeps (spec 02 GW-26). */
export interface BreakerRecord {
  failures: number;
  lastFailureAt: number;
}

/**
 * A circuit breaker whose state is computed on read (GW-17), so no timer is ever scheduled: `closed` below
 * the threshold, else `open` until the cooldown since the latest failure has passed, then `half-open`.
 */
export class CircuitBreaker {
  private readonly threshold: number;
  private readonly cooldownMs: number;

  constructor(config: CircuitBreakerConfig | undefined, readonly record: BreakerRecord = { failures: 0, lastFailureAt: 0 }) {
    this.threshold = Math.max(1, config?.failureThreshold ?? 3);
    this.cooldownMs = Math.max(0, config?.cooldownSeconds ?? 60) * 1000;
  }

  get state(): BreakerState {
    if (this.record.failures < this.threshold) return "closed";
    return Date.now() - this.record.lastFailureAt < this.cooldownMs ? "open" : "half-open";
  }

  status(): BreakerStatus {
    return { state: this.state, failures: this.record.failures };
  }

  success(): void {
    this.record.failures = 0;
  }

  /** Every failure moves the cooldown's start, so a failing half-open probe reopens the breaker. */
  failure(): void {
    this.record.failures += 1;
    this.record.lastFailureAt = Date.now();
  }
}
