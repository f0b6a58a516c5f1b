import { describe, expect, it } from "vitest";
import { ProfileMemories, searchMemories } from "../src/index.js";
import { recallAt, recallMemories, recallQueries } from "./recall-set.js";

describe("the labelled recall set (issue 24)", () => {
  const memories = recallMemories();
  const queries = recallQueries();
  const han = /\p{Script=Han}/u;

  it("has at least 60 queries over at least 300 memories, half of them Chinese", () => {
    expect(memories.length).toBeGreaterThanOrEqual(300);
    expect(queries.length).toBeGreaterThanOrEqual(60);
    expect(memories.filter((memory) => han.test(memory.text)).length * 2).toBeGreaterThanOrEqual(memories.length);
    expect(queries.filter((query) => han.test(query.query)).length * 2).toBeGreaterThanOrEqual(queries.length);
    const ids = new Set(memories.map((memory) => memory.id));
    expect(ids.size).toBe(memories.length);
    for (const query of queries) for (const id of query.relevant) expect(ids.has(id), `${query.query}: ${id}`).toBe(true);
  });

  it("BM25 alone reaches recall@5 >= 0.9", async () => {
    const profile = new ProfileMemories("recall");
    for (const memory of memories) profile.put(memory);
    const ranked = new Map<string, number[]>();
    for (const { query } of queries) {
      const outcome = await searchMemories(profile, { profile: "recall", channels: "all" }, { query, limit: 5 });
      ranked.set(query, outcome.hits.map((hit) => hit.record.id));
    }
    const { recall, misses } = recallAt(5, queries, (query) => ranked.get(query)!);
    expect(recall, misses.join("\n")).toBeGreaterThanOrEqual(0.9);
  });
});
