import { z } from "zod";
import { labelledQueries, labelledTools, labelledToolSet, recallAt } from "../../src/toolsearch/labelled-set/index.js";
import {
  catalogUpdate,
  parameterNames,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_NAME,
  searchInputSchema,
  type ToolDocument,
  ToolIndex,
  ToolSearch,
} from "../../src/toolsearch/index.js";
import { syntheticTools } from "./synthetic-tools.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
  higherIsBetter?: boolean;
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const labelledDocuments: ToolDocument[] = labelledTools.map((t) => ({
  name: t.name,
  description: t.description,
  params: parameterNames(t.inputSchema),
}));

/** The labelled tools plus synthetic ones up to `count`, so labelled queries keep their answers. */
function corpus(count: number): ToolDocument[] {
  if (count <= labelledDocuments.length) return labelledDocuments.slice(0, count);
  return [...labelledDocuments, ...syntheticTools(count - labelledDocuments.length)];
}

function build(documents: readonly ToolDocument[]): ToolIndex {
  const index = new ToolIndex();
  for (const document of documents) index.set(document);
  return index;
}

/** Median time of one query, over every labelled query repeated `rounds` times after a warm-up. */
function queryLatency(index: ToolIndex, rounds: number): number {
  for (const { query } of labelledQueries) index.query(query, 5);
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const { query } of labelledQueries) {
      const start = performance.now();
      index.query(query, 5);
      samples.push(performance.now() - start);
    }
  }
  return median(samples);
}

/** Median wall and CPU time of an index build; the CPU figure shows what a busy shared machine hides. */
function buildTime(documents: readonly ToolDocument[], runs: number): { wall: number; cpu: number } {
  build(documents);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < runs; r++) {
    const usage = process.cpuUsage();
    const start = performance.now();
    build(documents);
    wall.push(performance.now() - start);
    const used = process.cpuUsage(usage);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/** What a provider sends per tool: name, description and input JSON Schema. */
function definitionChars(tools: ReadonlyArray<{ name: string; description: string; inputSchema: unknown }>): number {
  return tools.reduce((sum, t) => sum + JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }).length, 0);
}

export default async function run(): Promise<Row[]> {
  const rows: Row[] = [];

  const search = new ToolSearch({ codemode: false, maxResults: 5 });
  await search.sync(labelledToolSet(labelledTools));
  const rank = (query: string) => search.search(query, new Set()).tools.map((t) => t.name);
  const recall5 = recallAt(5, labelledQueries, rank).recall;
  rows.push({ measure: `recall@1, labelled set (${labelledQueries.length} queries, ${labelledTools.length} tools)`, value: round(recallAt(1, labelledQueries, rank).recall), unit: "", higherIsBetter: true });
  rows.push({ measure: "recall@5, labelled set", value: round(recall5), unit: "", target: ">= 0.95", pass: recall5 >= 0.95, higherIsBetter: true });

  const big = build(corpus(5000));
  const rankBig = (query: string) => big.query(query, 5);
  rows.push({ measure: "recall@5, labelled queries among 5,000 tools", value: round(recallAt(5, labelledQueries, rankBig).recall), unit: "", higherIsBetter: true });

  rows.push({ measure: "query median, 100 tools", value: round(queryLatency(build(corpus(100)), 20)), unit: "ms" });
  const query5000 = queryLatency(big, 20);
  rows.push({ measure: "query median, 5,000 tools", value: round(query5000), unit: "ms", target: "< 1 ms", pass: query5000 < 1 });
  const buildMs = buildTime(corpus(5000), 7);
  rows.push({ measure: "index build, 5,000 tools", value: round(buildMs.wall, 1), unit: "ms", target: "< 200 ms", pass: buildMs.wall < 200 });
  rows.push({ measure: "index build, 5,000 tools, CPU time", value: round(buildMs.cpu, 1), unit: "ms" });

  // The same build through the runtime's entry point: AI SDK tools whose JSON Schemas are read first.
  const toolSet = labelledToolSet(
    corpus(5000).map((d) => ({ name: d.name, description: d.description, inputSchema: { type: "object", properties: Object.fromEntries(d.params.map((p) => [p, { type: "string" }])) } })),
  );
  const start = performance.now();
  await new ToolSearch({ codemode: false }).sync(toolSet);
  rows.push({ measure: "pool sync from a 5,000-tool ToolSet (first)", value: round(performance.now() - start, 1), unit: "ms" });

  // Model-visible tool definitions of a 100-tool profile. Kernel tools other than `search` are sent in both cases
  // and left out of both figures.
  const profile = labelledTools.slice(0, 100);
  const searchTool = { name: SEARCH_TOOL_NAME, description: SEARCH_TOOL_DESCRIPTION, inputSchema: z.toJSONSchema(searchInputSchema, { io: "input" }) };
  const baseline = catalogUpdate({ previous: undefined, visible: ["read", "send_message", "finish", "wait", "search"], mode: "direct", describe: () => "" })!;
  const without = definitionChars(profile);
  const withSearch = definitionChars([searchTool]) + baseline.text.length;
  const discovered = profile.slice(0, 5);
  const afterFive = withSearch + definitionChars(discovered);
  rows.push({ measure: "tool definitions, 100 tools, toolsearch off", value: without, unit: `chars (~${Math.round(without / 4)} tokens)` });
  rows.push({ measure: "tool definitions, 100 tools, toolsearch on (search + baseline)", value: withSearch, unit: `chars (~${Math.round(withSearch / 4)} tokens)` });
  rows.push({ measure: "tool definitions, toolsearch on after 5 discoveries", value: afterFive, unit: `chars (~${Math.round(afterFive / 4)} tokens)` });
  return rows;
}
