// The labelled recall set shipped in packages/memory/recall: realistic chat-bot memories (English and Chinese)
// and the searches a model would make before answering, each with the ids of the memories that answer it.
import { ENGLISH_MEMORIES } from "../recall/memories-en.js";
import { CHINESE_MEMORIES } from "../recall/memories-zh.js";
import { RECALL_QUERIES } from "../recall/queries.js";
import type { MemoryRecord, MemoryScope } from "../src/index.js";

export interface RecallQuery {
  query: string;
  relevant: number[];
}

const lines = (text: string): string[][] =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => line.split("|"));

/** The memories as rows of profile `recall`, all from platform `mock`. */
export function recallMemories(): MemoryRecord[] {
  const at = new Date(0);
  return [...lines(ENGLISH_MEMORIES), ...lines(CHINESE_MEMORIES)].map(([id, scope, subject, label, text]) => ({
    id: Number(id),
    profile: "recall",
    scope: scope as MemoryScope,
    subject: scope === "profile" ? "" : `mock:${subject}`,
    label,
    text,
    source: "",
    origin: "",
    createdAt: at,
    updatedAt: at,
    embedding: null,
    embeddingModel: "",
  }));
}

export function recallQueries(): RecallQuery[] {
  return lines(RECALL_QUERIES).map(([ids, query]) => ({ query, relevant: ids.split(",").map(Number) }));
}

/** Mean over queries of the share of relevant memories among the first `k` results. */
export function recallAt(k: number, queries: readonly RecallQuery[], search: (query: string, k: number) => number[]): { recall: number; misses: string[] } {
  let sum = 0;
  const misses: string[] = [];
  for (const { query, relevant } of queries) {
    const found = new Set(search(query, k));
    const hit = relevant.filter((id) => found.has(id)).length;
    sum += hit / relevant.length;
    if (hit < relevant.length) misses.push(`${query} → ${[...found].join(",")} (want ${relevant.join(",")})`);
  }
  return { recall: sum / queries.length, misses };
}
