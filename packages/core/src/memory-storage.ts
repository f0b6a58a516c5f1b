import type { AgentEntry } from "./entry.js";
import type { AgentStorage } from "./storage.js";

/** An in-memory stream, the agent's default storage (AG-12); `read` returns a copy of the array. */
export function createMemoryStorage(initial: readonly AgentEntry[] = []): AgentStorage {
  let entries = [...initial];
  return {
    async append(...added) {
      entries.push(...added);
    },
    async read() {
      return [...entries];
    },
    async scan(visit) {
      for (const entry of [...entries]) visit(entry);
    },
    async clear() {
      entries = [];
    },
  };
}
