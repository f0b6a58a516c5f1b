import type { AgentEntry } from "@yesimagent/core";
import type { ContextEngineInstance } from "./context-engine-instance.js";

/**
 * How much history a context engine instance needs in memory (issue 19): a method under this symbol, so the
 * seed's `ContextEngineInstance` stays as printed. The runtime calls it once, before the agent's first read,
 * and passes the agent a retention composed from the answer; from then on the instance is fed by `observe`
 * and receives the retained tail with `ContextRequest.offset`. An instance without one (any third-party
 * engine) gets the whole history, as before.
 */
export const contextRetention: unique symbol = Symbol.for("ishiki.context.retention");

export interface ContextRetention {
  /** Every entry once, in stream order, at its stream position (first the streamed read, then each append). */
  observe?(entry: AgentEntry, position: number): void;
  /** The lowest stream position any later `prepareEntries` may keep, given the tail held (`entries[0]` at `offset`). */
  retainFrom(entries: readonly AgentEntry[], offset: number): number;
  /** The stream was cleared. */
  reset?(): void;
  /** What `observe` built, JSON-serialisable, with the settings it depends on (a history checkpoint). */
  save?(): unknown;
  /** Takes back what `save` returned; false when it was saved under other settings. */
  restore?(saved: unknown): boolean;
}

export interface RetainingContext extends ContextEngineInstance {
  [contextRetention](): ContextRetention;
}

/**
 * The retention of a window computed from the tail alone (no state of its own): a checkpoint fits while the
 * settings that shaped its tail are the same.
 */
export function tailRetention(settings: unknown, retainFrom: ContextRetention["retainFrom"]): ContextRetention {
  const key = JSON.stringify(settings);
  return {
    retainFrom,
    save: () => ({ settings: key }),
    restore: (saved) => typeof saved === "object" && saved !== null && (saved as { settings?: unknown }).settings === key,
  };
}

/** Switches a retaining instance to observed history and returns its retention; undefined for any other. */
export function retentionOf(instance: ContextEngineInstance): ContextRetention | undefined {
  const method = (instance as Partial<RetainingContext>)[contextRetention];
  return typeof method === "function" ? method.call(instance) : undefined;
}
