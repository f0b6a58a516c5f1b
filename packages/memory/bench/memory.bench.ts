// Memory benchmarks (issue 24): BM25 search over 100,000 memories of one profile (the kernel tokenizer, mixed
// English and Chinese), indexing cost, the shipped recall set's recall@5, and the instruction section's budget
// under random inputs.
import { canSee, memorySection, ProfileMemories, searchMemories, type MemoryRecord, type Viewer } from "../src/index.js";
import { recallAt, recallMemories, recallQueries } from "../test/recall-set.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

const MEMORIES = 100_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

/** A seeded generator (mulberry32), so every run indexes the same memories. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EN_NAMES = ["Sam", "Alex", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Jamie", "Quinn", "Avery", "Rowan", "Parker"];
const ZH_NAMES = ["小张", "阿伟", "老李", "小红", "大军", "阿梅", "小赵", "二狗", "丽丽", "强子", "小花", "老孙"];

/**
 * 100,000 memories shaped like the recall set's: each is one of its texts with the person renamed (a name from a
 * pool plus a number, so subjects are many and names repeat) and a detail appended, about 1,000 people, 200
 * channels and the profile.
 */
function population(): MemoryRecord[] {
  const base = recallMemories();
  const next = random(24);
  const at = new Date(0);
  const records: MemoryRecord[] = [];
  for (let id = 1; id <= MEMORIES; id++) {
    const template = base[Math.floor(next() * base.length)];
    const chinese = /\p{Script=Han}/u.test(template.text);
    const person = Math.floor(next() * 1000);
    const name = `${(chinese ? ZH_NAMES : EN_NAMES)[person % 12]}${person}`;
    const text = `${template.label ? template.text.replace(template.label, name) : template.text}${chinese ? `，第${id % 97}次提到` : `, mentioned ${id % 97} times`}`;
    const scope = template.scope;
    const subject = scope === "person" ? `mock:u${person}` : scope === "channel" ? `mock:g${id % 200}` : "";
    records.push({ id, profile: "bench", scope, subject, label: scope === "person" ? name : "", text, source: "", origin: "", createdAt: at, updatedAt: at, embedding: null, embeddingModel: "" });
  }
  return records;
}

export default async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  const records = population();
  let started = performance.now();
  const memories = new ProfileMemories("bench");
  for (const record of records) memories.put(record);
  const indexing = performance.now() - started;
  rows.push({ measure: "index 100,000 memories (load of one profile)", value: Math.round(indexing), unit: "ms" });
  const heap = process.memoryUsage().heapUsed;
  rows.push({ measure: "heap after indexing 100,000 memories", value: Math.round(heap / 1024 / 1024), unit: "MiB" });

  const queries = recallQueries().map((query) => query.query);
  const everywhere: Viewer = { profile: "bench", channels: "all" };
  const oneChannel: Viewer = { profile: "bench", channels: new Set(["mock:g7"]) };
  for (const [label, viewer] of [["cross runtime", everywhere], ["one channel's runtime", oneChannel]] as const) {
    for (const query of queries) await searchMemories(memories, viewer, { query, limit: 5 });
    const times: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const query of queries) {
        started = performance.now();
        const outcome = await searchMemories(memories, viewer, { query, limit: 5 });
        times.push(performance.now() - started);
        for (const hit of outcome.hits) if (!canSee(viewer, hit.record)) throw new Error(`search returned hidden memory ${hit.record.id}`);
      }
    }
    const value = round(median(times));
    rows.push({ measure: `memory_search at 100,000 memories, ${label}, median of ${times.length}`, value, unit: "ms", target: "< 5 ms", pass: value < 5 });
    rows.push({ measure: `memory_search at 100,000 memories, ${label}, p99`, value: round([...times].sort((a, b) => a - b)[Math.floor(times.length * 0.99)]), unit: "ms" });
  }

  const recall = new ProfileMemories("recall");
  for (const record of recallMemories()) recall.put(record);
  const ranked = new Map<string, number[]>();
  for (const { query } of recallQueries()) ranked.set(query, (await searchMemories(recall, { profile: "recall", channels: "all" }, { query, limit: 5 })).hits.map((hit) => hit.record.id));
  const { recall: recallValue } = recallAt(5, recallQueries(), (query) => ranked.get(query)!);
  rows.push({ measure: `recall@5 of the shipped recall set (${recallQueries().length} queries, ${recall.records.size} memories), BM25 alone`, value: round(recallValue), unit: "", target: ">= 0.9", pass: recallValue >= 0.9 });

  // The section under random budgets and inputs: long and short texts, many people, empty groups.
  const next = random(7);
  let worst = Number.NEGATIVE_INFINITY;
  let longest = 0;
  for (let trial = 0; trial < 20_000; trial++) {
    const pick = (count: number) => Array.from({ length: count }, () => records[Math.floor(next() * records.length)]).map((record) => ({ ...record, text: record.text.repeat(1 + Math.floor(next() * 8)) }));
    const budget = Math.floor(next() * 4000);
    const people = Array.from({ length: Math.floor(next() * 8) }, (_, index) => ({ title: `P${index}(${"x".repeat(Math.floor(next() * 40))})`, memories: pick(Math.floor(next() * 12)) }));
    const section = memorySection({ channel: { title: "mock:g1", memories: pick(Math.floor(next() * 10)) }, people, profile: pick(Math.floor(next() * 6)), elsewhere: Math.floor(next() * 100_000) }, budget);
    worst = Math.max(worst, section.length - budget);
    longest = Math.max(longest, section.length);
  }
  rows.push({ measure: "instruction section over its budget, worst of 20,000 random inputs (budgets 0-4,000 chars)", value: Math.max(0, worst), unit: "chars", target: "0", pass: worst <= 0 });
  rows.push({ measure: "instruction section, longest of those 20,000", value: longest, unit: "chars" });
  return rows;
}
