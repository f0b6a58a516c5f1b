import type { Agent } from "@yesimagent/core";

/**
 * What a wakeup engine does for one runtime (spec 06 EN-23, EN-24). `attach` is called once at runtime
 * initialisation; the disposer (at stop) cancels subscriptions, timers and pending work.
 *
 * Open turns only with `agent.continue()`; check `agent.isIdle()` before and after any async decision; channel
 * listeners are awaited by the turn loop, so do slow work detached and catch your own errors.
 */
export interface WakeupEngineInstance {
  attach(agent: Agent): () => void;
}
