import { MemoryExtension } from "./extension.js";

export { MemoryExtension };
export { MemoryPluginConfig, MemorySettings, type ConsolidationSettings } from "./settings.js";
export type { MemoryDraft, MemoryRecord, MemoryScope } from "./store/memory-record.js";
export { MEMORY_TABLE, USAGE_TABLE, defineTables, type MemoryUsageRecord } from "./store/tables.js";
export { MemoryStore, type MemoryQuery } from "./store/memory-store.js";
export { ProfileMemories, canSee, type Viewer } from "./store/profile-memories.js";
export { Bm25Index, type ScoredDocument } from "./search/bm25-index.js";
export { searchMemories, type SearchOutcome, type SearchRequest } from "./search/memory-search.js";
export { Embedder } from "./search/embedder.js";
export { memorySection, SECTION_HEADER, type SectionInput } from "./instructions.js";
export { MemoryScheme } from "./scheme.js";
export { Consolidation, CONSOLIDATION_RULES } from "./consolidation.js";

export const name = "ishiki-memory";
export const usage = [
  "Gives Ishiki runtimes whose profile enables `extends.memory` a long-term memory of people, channels and the profile,",
  "stored in Koishi's database (for SQLite add `ishiki-memory/sqlite: {}` to koishi.yml): the tools `memory_save`,",
  "`memory_forget` and `memory_search`, a bounded memory section in the instructions, `memory://` resources and the",
  "`ishiki.memory` command. See docs/memory.md.",
].join(" ");
export default MemoryExtension;
