import { jsonSchema, tool, type ToolSet } from "ai";
import type { LabelledQuery, LabelledTool } from "./labelled-tool.js";

/** The labelled tools as an AI SDK tool set (no `execute`: search only reads definitions). */
export function labelledToolSet(tools: readonly LabelledTool[]): ToolSet {
  return Object.fromEntries(tools.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema) })]));
}

export interface RecallReport {
  /** Mean over queries of the share of a query's relevant tools found in the top k. */
  readonly recall: number;
  /** Queries that missed at least one relevant tool, with what was returned. */
  readonly misses: ReadonlyArray<{ query: string; missing: string[]; returned: string[] }>;
}

/** Recall@k of a ranking function over labelled queries. */
export function recallAt(k: number, queries: readonly LabelledQuery[], rank: (query: string) => readonly string[]): RecallReport {
  let sum = 0;
  const misses: Array<{ query: string; missing: string[]; returned: string[] }> = [];
  for (const { query, relevant } of queries) {
    const returned = rank(query).slice(0, k);
    // A query with more relevant tools than k can at best fill the k slots.
    const found = relevant.filter((name) => returned.includes(name)).length;
    sum += found / Math.min(relevant.length, k);
    if (found < Math.min(relevant.length, k)) misses.push({ query, missing: relevant.filter((n) => !returned.includes(n)), returned: [...returned] });
  }
  return { recall: queries.length === 0 ? 0 : sum / queries.length, misses };
}
