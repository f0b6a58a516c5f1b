// First `read` page of a 100 MB local file (QA-16): a direct read fetches one page and counts the rest.
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { createResourceCenter, pageOriginOf, pageText } from "../../src/resources/index.js";
import { createReadTool } from "../../src/tools/read.js";
import type { ReadResult } from "../../src/tools/read-schema.js";

type Row = { measure: string; value: number | string; unit: string; target?: string };

async function writeText(path: string, bytes: number, line: string): Promise<void> {
  const out = createWriteStream(path);
  const block = line.repeat(Math.floor((1024 * 1024) / line.length));
  for (let written = 0; written < bytes; written += block.length) {
    if (!out.write(block)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export default async function bench(): Promise<Row[]> {
  const home = await mkdtemp(join(tmpdir(), "ishiki-bench-read-"));
  const center = createResourceCenter({ runtimeId: "bench:read", home });
  const read = createReadTool(center);
  const firstPage = async (url: string) => {
    const result = (await read.execute!({ url }, { toolCallId: "bench", messages: [], context: {} })) as ReadResult;
    if (result.type !== "text") throw new Error("expected text");
    return pageText(result.text, pageOriginOf(result.text, result.source, result.url)).display;
  };
  const time = async (url: string, runs: number) => {
    await firstPage(url);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await firstPage(url);
      times.push(performance.now() - start);
    }
    return median(times);
  };
  const peak = async (url: string) => {
    const sample = () => getHeapStatistics().used_heap_size + process.memoryUsage().arrayBuffers;
    const base = sample();
    let max = 0;
    const timer = setInterval(() => (max = Math.max(max, sample() - base)), 1);
    await firstPage(url);
    clearInterval(timer);
    return Math.max(max, sample() - base);
  };
  try {
    const ascii = "The quick brown fox jumps over the lazy dog; lorem ipsum dolor sit amet 0123456789\n";
    await writeText(join(home, "ascii-100.txt"), 100 * 1024 * 1024, ascii);
    await writeText(join(home, "ascii-10.txt"), 10 * 1024 * 1024, ascii);
    await writeText(join(home, "mixed-100.txt"), 100 * 1024 * 1024, "速い茶色の狐が怠け者の犬を飛び越える 😀 quick brown fox\n");
    const rows: Row[] = [
      { measure: "first read page, 100 MiB ASCII local file (median of 9)", value: +(await time("local://ascii-100.txt", 9)).toFixed(1), unit: "ms", target: "< 50 ms" },
      { measure: "first read page, 100 MiB CJK/emoji local file (median of 5)", value: +(await time("local://mixed-100.txt", 5)).toFixed(1), unit: "ms" },
      { measure: "line range :1000000-1000010 of the 100 MiB ASCII file (median of 5)", value: +(await time("local://ascii-100.txt:1000000-1000010", 5)).toFixed(1), unit: "ms" },
    ];
    const small = await peak("local://ascii-10.txt");
    const large = await peak("local://ascii-100.txt");
    rows.push(
      { measure: "peak memory of a first page, 10 MiB file", value: +(small / 1024 / 1024).toFixed(1), unit: "MiB" },
      { measure: "peak memory of a first page, 100 MiB file", value: +(large / 1024 / 1024).toFixed(1), unit: "MiB", target: "independent of file size" },
    );
    return rows;
  } finally {
    center.dispose();
    await rm(home, { recursive: true, force: true });
  }
}
