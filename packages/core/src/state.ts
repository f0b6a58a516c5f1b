/**
 * Fields plugins keep in the agent's state, declared by augmentation:
 * `declare module "koishi-plugin-ishiki" { interface AgentCustomState { userName?: string } }`.
 */
export interface AgentCustomState {}

/** The agent's state snapshot, persisted as a `state` entry on every change (AG-51). */
export type AgentState = { version: number } & AgentCustomState;

/**
 * `agent.state` (AG-51). `set` and `update` run one at a time in call order; each deep-clones the new value,
 * persists a `state` entry and only then makes it visible through `get`. A failed persist rejects and keeps
 * the old value. `restore` replaces the value without persisting (the agent uses it at init, AG-50).
 */
export interface AgentStateStore {
  get(): AgentState;
  set(next: AgentState | ((current: AgentState) => AgentState)): Promise<void>;
  update(patch: Partial<AgentState>): Promise<void>;
  restore(snapshot: AgentState): void;
}

export function createStateStore(initial: AgentState, persist: (snapshot: AgentState) => Promise<void>): AgentStateStore {
  let current = structuredClone(initial);
  let tail: Promise<unknown> = Promise.resolve();

  const set = (next: AgentState | ((value: AgentState) => AgentState)): Promise<void> => {
    const operation = tail.then(async () => {
      const value = structuredClone(typeof next === "function" ? next(structuredClone(current)) : next);
      await persist(value);
      current = value;
    });
    tail = operation.catch(() => undefined);
    return operation;
  };

  return {
    get: () => structuredClone(current),
    set,
    update: (patch) => set((value) => ({ ...value, ...patch })),
    restore(snapshot) {
      current = structuredClone(snapshot);
    },
  };
}
