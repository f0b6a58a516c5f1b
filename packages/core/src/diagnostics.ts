import type { Agent } from "./agent-contract.js";

/** Internal counters of an agent, for tests and benchmarks; not part of the public handle. */
export interface AgentDiagnostics {
  /** Live per-turn event buffers (AG-31). */
  turnBuffers(): number;
  /** Entries held in memory (AG-9). */
  historySize(): number;
}

const registry = new WeakMap<Agent, AgentDiagnostics>();

export function registerDiagnostics(agent: Agent, diagnostics: AgentDiagnostics): void {
  registry.set(agent, diagnostics);
}

export function inspectAgent(agent: Agent): AgentDiagnostics {
  const diagnostics = registry.get(agent);
  if (!diagnostics) throw new TypeError("inspectAgent: not an agent made by createAgent");
  return diagnostics;
}
