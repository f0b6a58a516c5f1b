import type { Agent } from "@yesimagent/core";
import type { WakeupReport } from "./wakeup-decision.js";

/**
 * Where a wakeup engine runs (issue 22): its clock, its random source, where it reports its decisions and how it
 * spends model calls. A runtime binds one with the real clock that keeps the reports in its ring; a policy
 * preview binds one with a virtual clock, in which turns take no time and model calls are budgeted.
 *
 * Optional for third-party engines: an engine that never asks still works, its decisions are just not explained
 * and a preview of it runs on the real clock. Ask in `attach` with `wakeupEnvironment(agent)`.
 */
export interface WakeupEnvironment {
  /** True in a policy preview: prefer this clock and random source over your own injected ones. */
  readonly simulated: boolean;
  now(): number;
  /** Runs `run` after `ms` on this clock; returns its canceller. Real timers never hold the process open. */
  setTimer(ms: number, run: () => void, onError: (error: unknown) => void): () => void;
  random(): number;
  report(report: WakeupReport): void;
  /** Claims one model call; false once a preview's budget is spent (the engine then decides without the model). */
  claimModelCall(): boolean;
  /** Slow work started outside a channel listener; a preview awaits it before its clock moves on. */
  background(task: Promise<unknown>): void;
}

function realTimer(ms: number, run: () => void, onError: (error: unknown) => void): () => void {
  const timer = setTimeout(() => {
    try {
      run();
    } catch (error) {
      onError(error);
    }
  }, Math.max(0, ms));
  timer.unref();
  return () => clearTimeout(timer);
}

/** The real clock with reports going to `report` (nowhere by default). */
export function realWakeupEnvironment(report: (report: WakeupReport) => void = () => {}): WakeupEnvironment {
  return { simulated: false, now: Date.now, setTimer: realTimer, random: Math.random, report, claimModelCall: () => true, background: () => {} };
}

const unbound = realWakeupEnvironment();
// Keyed weakly by agent, as the scheduled-work probes are: a binding never keeps a stopped runtime alive.
const bound = new WeakMap<Agent, WakeupEnvironment>();

/** Binds `environment` to `agent` for the engine attached to it; returns the unbinding. */
export function bindWakeupEnvironment(agent: Agent, environment: WakeupEnvironment): () => void {
  bound.set(agent, environment);
  return () => {
    if (bound.get(agent) === environment) bound.delete(agent);
  };
}

/** The environment bound to `agent`, or the real clock reporting nowhere. */
export function wakeupEnvironment(agent: Agent): WakeupEnvironment {
  return bound.get(agent) ?? unbound;
}
