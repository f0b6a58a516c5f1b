import { MockLanguageModelV4 } from "koishi-plugin-ishiki";
import type { EmbeddingModelV4, LanguageModelV4CallOptions } from "koishi-plugin-ishiki";
import { afterEach, describe, expect, it } from "vitest";
import { call, group, invokeMemory, startKernel, until, type Kernel } from "./support.js";

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const bare = { bare: { model: "mock:m", channels: { "mock:bot": ["*"] } }, other: { model: "mock:m", channels: { "mock:other": ["*"] } } };

/** Three hand-made meanings: pets, food, travel. A text's vector counts the words of each it contains. */
const MEANINGS = [["cat", "kitten", "猫", "pet"], ["durian", "food", "eat", "榴莲"], ["trip", "travel", "flight", "Chengdu"]];
const vector = (text: string) => MEANINGS.map((words) => words.filter((word) => text.toLowerCase().includes(word.toLowerCase())).length + 0.01);

function embeddingModel(fail: () => boolean): EmbeddingModelV4 {
  return {
    specificationVersion: "v4",
    provider: "hand",
    modelId: "meanings",
    maxEmbeddingsPerCall: 100,
    supportsParallelCalls: true,
    doEmbed: async ({ values }) => {
      if (fail()) throw new Error("embedding server down");
      return { embeddings: values.map(vector), usage: { tokens: values.length * 7 }, warnings: [] };
    },
  };
}

/** Scripted side-request models: each consolidation call answers with the next JSON text. */
function sideApis(kernel: Kernel, answers: string[], options: { failEmbeddings?: () => boolean } = {}) {
  const calls: LanguageModelV4CallOptions[] = [];
  const judge = new MockLanguageModelV4({
    doGenerate: async (options) => {
      calls.push(options);
      return {
        content: [{ type: "text", text: answers.shift() ?? "{}" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: { inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 30, text: 30, reasoning: 0 } },
        warnings: [],
      };
    },
  });
  kernel.app.ishiki.gateway.defineApi("side", () => ({
    specificationVersion: "v4",
    languageModel: () => judge,
    embeddingModel: () => embeddingModel(options.failEmbeddings ?? (() => false)),
    imageModel: () => {
      throw new Error("no images");
    },
  }) as never);
  kernel.app.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted" }, side: { api: "side" } } });
  return calls;
}

describe("side requests: hybrid ranking and consolidation (issue 24)", () => {
  it("hybrid ranking finds a memory BM25 cannot, records embedding usage, and falls back to BM25 with a warning when the model fails", async () => {
    kernel = await startKernel(bare);
    let down = false;
    sideApis(kernel, [], { failEmbeddings: () => down });
    const g1 = group("g1");
    const lexical = await invokeMemory(kernel, "bare", g1);
    await call(lexical.tools, "memory_save", { text: "Alice has a ginger cat named Biscuit", subject: "alice" });
    await call(lexical.tools, "memory_save", { text: "Bob loves durian", subject: "bob" });
    expect((await call<{ results: unknown[] }>(lexical.tools, "memory_search", { query: "kitten" })).results).toEqual([]);

    const hybrid = await invokeMemory(kernel, "bare", g1, { embeddingModel: "side:meanings" });
    const found = await call<{ results: Array<{ id: number }>; ranking: string }>(hybrid.tools, "memory_search", { query: "kitten" });
    expect(found.ranking).toBe("hybrid");
    expect(found.results[0].id).toBe(1);
    const usage = await kernel.app.database.get("ishiki_memory_usage", { kind: "embed" });
    // The backfill of both memories, then the query.
    expect(usage.map((row) => [row.model, row.inputTokens])).toEqual([["side:meanings", 14], ["side:meanings", 7]]);
    const rows = await kernel.app.database.get("ishiki_memory", {});
    expect(rows.every((row) => row.embeddingModel === "side:meanings" && row.embedding?.length === 3)).toBe(true);

    down = true;
    const fallback = await call<{ results: Array<{ id: number }>; ranking: string }>(hybrid.tools, "memory_search", { query: "durian" });
    expect(fallback).toMatchObject({ ranking: "bm25", results: [{ id: 2 }] });
    expect(hybrid.warnings).toEqual([expect.stringMatching(/^memory_search: embedding model "side:meanings" failed: .*embedding server down.*; ranked by BM25 alone$/)]);
  });

  it("consolidation runs only within the owner's token budget, merges a subject's duplicates and records its usage", async () => {
    kernel = await startKernel(bare);
    const calls = sideApis(kernel, [
      JSON.stringify({ memories: [{ text: "小林最喜欢吃榴莲，每周都买", replaces: [4, 5] }, { text: "小林在杭州做前端", replaces: [6] }] }),
    ]);
    const g1 = group("g1");
    // A budget too small for one pass: nothing is sent, one log line says why.
    const tight = await invokeMemory(kernel, "other", group("g1", "other"), { consolidation: { tokenBudget: 200, threshold: 3, model: "side:judge" } });
    for (const text of ["小林喜欢榴莲", "小林每周都买榴莲", "小林在杭州做前端"]) await call(tight.tools, "memory_save", { text, subject: "u1" });
    await until(() => kernel!.logs.some(([, line]) => line.includes("memory consolidation of person mock:u1: skipped (token budget: 200 of 200 left today")));
    expect(calls).toHaveLength(0);

    const loose = await invokeMemory(kernel, "bare", g1, { consolidation: { tokenBudget: 5000, threshold: 3, model: "side:judge" } });
    for (const text of ["小林喜欢榴莲", "小林每周都买榴莲", "小林在杭州做前端"]) await call(loose.tools, "memory_save", { text, subject: "u1" });
    await until(() => kernel!.logs.some(([, line]) => line.includes("memory consolidation of person mock:u1: done")), 3000).catch(() => { throw new Error(kernel!.logs.map((l) => l.join(" ")).join("\n")); });
    expect(calls).toHaveLength(1);
    expect(JSON.stringify(calls[0].prompt)).toContain("小林每周都买榴莲");
    expect(calls[0].maxOutputTokens).toBeLessThanOrEqual(2048);
    const rows = (await kernel.app.database.get("ishiki_memory", { profile: "bare" })).map((row) => [row.id, row.text]);
    expect(rows).toEqual([[7, "小林最喜欢吃榴莲，每周都买"], [6, "小林在杭州做前端"]].sort((a, b) => Number(a[0]) - Number(b[0])));
    const usage = await kernel.app.database.get("ishiki_memory_usage", { kind: "consolidate" });
    expect(usage.map((row) => [row.profile, row.inputTokens, row.outputTokens])).toEqual([["bare", 120, 30]]);
    const found = await call<{ results: Array<{ text: string }> }>(loose.tools, "memory_search", { query: "榴莲" });
    expect(found.results.map((result) => result.text)).toEqual(["小林最喜欢吃榴莲，每周都买"]);
  });
});
