import { describe, expect, it } from "vitest";
import { labelledQueries, labelledTools, labelledToolSet, recallAt } from "./labelled-set/index.js";
import { ToolSearch } from "./tool-search.js";

const CJK = /\p{Script=Han}/u;

describe("shipped labelled set (CT-26)", () => {
  it("CT-26 has at least 80 tools and 60 queries, half of them Chinese, labelled with existing tools", () => {
    expect(labelledTools.length).toBeGreaterThanOrEqual(80);
    expect(new Set(labelledTools.map((t) => t.name)).size).toBe(labelledTools.length);
    expect(labelledQueries.length).toBeGreaterThanOrEqual(60);
    expect(labelledQueries.filter((q) => CJK.test(q.query)).length * 2).toBeGreaterThanOrEqual(labelledQueries.length);
    const names = new Set(labelledTools.map((t) => t.name));
    for (const { relevant } of labelledQueries) {
      expect(relevant.length).toBeGreaterThan(0);
      for (const name of relevant) expect(names).toContain(name);
    }
  });

  it("CT-26 recall@5 over the labelled set is at least 0.95", async () => {
    const search = new ToolSearch({ codemode: false, maxResults: 5 });
    await search.sync(labelledToolSet(labelledTools));
    const report = recallAt(5, labelledQueries, (query) => search.search(query, new Set()).tools.map((t) => t.name));
    expect(report.recall, JSON.stringify(report.misses, null, 1)).toBeGreaterThanOrEqual(0.95);
  });

  it("CT-26 recall counts each relevant tool (a ranking that finds nothing scores 0)", () => {
    expect(recallAt(5, labelledQueries, () => []).recall).toBe(0);
    const perfect = recallAt(5, labelledQueries, (q) => labelledQueries.find((l) => l.query === q)!.relevant);
    expect(perfect.recall).toBe(1);
    const half = recallAt(5, [{ query: "q", relevant: ["a", "b"] }], () => ["a", "x"]);
    expect(half.recall).toBe(0.5);
  });
});
