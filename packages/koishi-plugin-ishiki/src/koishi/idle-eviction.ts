import type { Runtime } from "../runtime/index.js";

/** 30 minutes without events or turns (spec 08 KP-20); not configurable. */
export const IDLE_EVICTION_MS = 30 * 60_000;
/** How often runtimes are looked at; a turn is seen as activity at this resolution. */
export const IDLE_SWEEP_MS = 60_000;

/**
 * Last activity per runtime (KP-20): every routed event touches its runtime, and a runtime whose agent is busy at
 * a sweep, or that holds an armed `wait`, is touched too. A runtime idle for 30 minutes is returned once by `due` and forgotten.
 */
export class IdleTracker {
  private readonly live = new Map<string, { runtime: Runtime; last: number }>();

  public created(runtime: Runtime, now = Date.now()): void {
    this.live.set(runtime.id, { runtime, last: now });
  }

  public touch(id: string, now = Date.now()): void {
    const entry = this.live.get(id);
    if (entry) entry.last = now;
  }

  public clear(): void {
    this.live.clear();
  }

  /** Ids to evict now: idle for `IDLE_EVICTION_MS`, with an idle agent (no turn, no pending wake) and no armed `wait`. */
  public due(now = Date.now()): string[] {
    const out: string[] = [];
    for (const [id, entry] of this.live) {
      if (!entry.runtime.agent.isIdle() || entry.runtime.hasScheduledWork()) entry.last = now;
      else if (now - entry.last >= IDLE_EVICTION_MS) out.push(id);
    }
    for (const id of out) this.live.delete(id);
    return out;
  }
}
