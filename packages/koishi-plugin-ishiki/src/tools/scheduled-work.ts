import type { Agent } from "@yesimagent/core";

// Engines and tools that hold timers or in-memory state for an agent say so here, so that idle eviction does
// not stop a runtime whose pending wake, debounce or mute would be lost (spec 08 KP-20). Keyed weakly by agent:
// a probe never keeps a stopped runtime alive.
const probes = new WeakMap<Agent, Set<() => boolean>>();

/** Registers `probe` (true while work is scheduled for `agent`); returns its disposer. */
export function registerScheduledWork(agent: Agent, probe: () => boolean): () => void {
  let set = probes.get(agent);
  if (!set) probes.set(agent, (set = new Set()));
  set.add(probe);
  return () => void set.delete(probe);
}

/** Whether any registered probe reports scheduled work for `agent`. */
export function hasScheduledWork(agent: Agent): boolean {
  for (const probe of probes.get(agent) ?? []) if (probe()) return true;
  return false;
}
