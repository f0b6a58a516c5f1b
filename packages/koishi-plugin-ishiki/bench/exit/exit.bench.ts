// Display of a 50 MB text and a 50 MB JSON tool result through the unified exit (04 EX-8): the result is
// archived once and the model gets page one. Target < 300 ms and at most two copies of the payload alive.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { jsonSchema, tool, type Tool } from "ai";
import { wrapToolSet } from "../../src/exit/index.js";
import { createResourceCenter } from "../../src/resources/index.js";

type Row = { measure: string; value: number | string; unit: string; target?: string; pass?: boolean };

const MB = 1024 * 1024;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function bigText(): string {
  const line = "2026-11-30T01:00:00Z worker-7 INFO request served in 12 ms; path=/api/items?page=3\n";
  return line.repeat(Math.ceil((50 * MB) / line.length));
}

function bigJson(): unknown[] {
  const rows: unknown[] = [];
  // Each row pretty-prints to ~110 characters: about 480k rows make 50 MB of readable JSON.
  for (let id = 0; rows.length * 110 < 50 * MB; id++) rows.push({ id, name: `item-${id}`, tags: ["a", "b"], price: id * 0.5 });
  return rows;
}

export default async function bench(): Promise<Row[]> {
  const root = await mkdtemp(join(tmpdir(), "ishiki-bench-exit-"));
  let runs = 0;
  // Each display gets a fresh runtime home, so every run really writes its artifact.
  const display = async (output: unknown) => {
    const resources = createResourceCenter({ runtimeId: "bench:exit", home: join(root, String(++runs)) });
    const base = tool({ inputSchema: jsonSchema<Record<string, never>>({ type: "object" }), execute: async () => output }) as Tool;
    const wrapped = wrapToolSet({ dump: base }, { runtimeId: "bench:exit", resources, imageInput: false, appendAttachment: () => {} }).dump;
    const out = await wrapped.toModelOutput!({ toolCallId: `call-${runs}`, input: {}, output });
    resources.dispose();
    return out;
  };
  const sample = () => getHeapStatistics().used_heap_size + process.memoryUsage().arrayBuffers;
  const measure = async (output: unknown, payload: number) => {
    await display(output);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const out = await display(output);
      times.push(performance.now() - start);
      if (out.type !== "text" || !out.value.includes("Full result: artifact://dump/")) throw new Error("expected an archived first page");
    }
    const base = sample();
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, sample() - base)), 1);
    await display(output);
    clearInterval(timer);
    peak = Math.max(peak, sample() - base);
    return { time: median(times), peak, copies: peak / payload };
  };
  try {
    const text = bigText();
    const textRun = await measure(text, text.length);
    const rows = bigJson();
    const jsonSize = JSON.stringify(rows, null, 2).length;
    const jsonRun = await measure(rows, jsonSize);
    return [
      { measure: "exit display, 50 MB text (archive + page one), median", value: Number(textRun.time.toFixed(1)), unit: "ms", target: "< 300", pass: textRun.time < 300 },
      { measure: "exit display, 50 MB text, peak extra memory", value: Number((textRun.peak / MB).toFixed(1)), unit: "MiB" },
      { measure: "exit display, 50 MB text, payload copies alive", value: Number(textRun.copies.toFixed(2)), unit: "copies", target: "<= 2", pass: textRun.copies <= 2 },
      { measure: `exit display, ${(jsonSize / MB).toFixed(0)} MB JSON (normalise + archive + page one), median`, value: Number(jsonRun.time.toFixed(1)), unit: "ms", target: "< 300", pass: jsonRun.time < 300 },
      { measure: "exit display, 50 MB JSON, peak extra memory", value: Number((jsonRun.peak / MB).toFixed(1)), unit: "MiB" },
      { measure: "exit display, 50 MB JSON, payload copies alive", value: Number(jsonRun.copies.toFixed(2)), unit: "copies", target: "<= 2", pass: jsonRun.copies <= 2 },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
