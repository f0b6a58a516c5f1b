import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResourceCenter, type OwnedResourceCenter } from "./center.js";
import type { TextPayload } from "./payload.js";

const LINES = 800_000;
const line = (n: number) => `${String(n).padStart(8, "0")} the quick brown fox jumps over the lazy dog 😀 中文\n`;

let home: string;
let center: OwnedResourceCenter;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "ishiki-large-"));
  const out = createWriteStream(join(home, "big.txt"));
  for (let start = 1; start <= LINES; start += 10_000) {
    let block = "";
    for (let n = start; n < start + 10_000 && n <= LINES; n++) block += line(n);
    if (!out.write(block)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  center = createResourceCenter({ runtimeId: "p:large", home });
}, 60_000);

afterAll(async () => {
  center.dispose();
  await rm(home, { recursive: true, force: true });
});

/** Peak of heap plus off-heap buffers above the level at the start, sampled while `action` runs. */
async function peakMemory<T>(action: () => Promise<T>): Promise<{ result: T; peak: number }> {
  const sample = () => getHeapStatistics().used_heap_size + process.memoryUsage().arrayBuffers;
  const base = sample();
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, sample() - base);
  }, 1);
  try {
    const result = await action();
    peak = Math.max(peak, sample() - base);
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

describe("large local files", () => {
  it("RS-21 a 50 MB local:// file is read by line range without loading it whole", async () => {
    const size = (await stat(join(home, "big.txt"))).size;
    expect(size).toBeGreaterThan(50 * 1000 * 1000);
    const { result, peak } = await peakMemory(() => center.resolve("local://big.txt:750000-750002"));
    const payload = result as TextPayload;
    expect(payload.text).toBe(line(750000) + line(750001) + line(750002));
    expect(payload.source).toMatchObject({ url: "local://big.txt", range: { start: 750000, end: 750002 }, totalLines: LINES });
    expect(payload.source?.totalChars).toBe(line(1).length * LINES);
    expect(payload.source?.offset).toBe(line(1).length * 749999);
    console.info(`[RS-21] ${(size / 1e6).toFixed(1)} MB file, line range read: peak memory +${(peak / 1024 / 1024).toFixed(1)} MiB`);
    // loading the file whole would take at least its size (52 MB) in bytes, and more as a UTF-16 string;
    // the bound leaves room for garbage the collector has not reclaimed yet
    expect(peak).toBeLessThan(32 * 1024 * 1024);
  });

  it("RS-11 RS-34 a first page and an offset continuation deep in the file stay small", async () => {
    const { result, peak } = await peakMemory(() => center.resolve("local://big.txt", { firstPage: true }));
    const first = result as TextPayload;
    expect(first.text.length).toBeLessThanOrEqual(30_001);
    expect(first.source).toMatchObject({ selectedEnd: line(1).length * LINES, totalLines: LINES });
    const offset = line(1).length * 600_000;
    const next = (await center.resolve(`local://big.txt#offset=${offset}`, { firstPage: true })) as TextPayload;
    expect(next.text.startsWith(line(600_001))).toBe(true);
    expect(next.source).toMatchObject({ offset, range: { start: 600_001 } });
    console.info(`[RS-34] first page of the 50 MB file: peak memory +${(peak / 1024 / 1024).toFixed(1)} MiB`);
    expect(peak).toBeLessThan(32 * 1024 * 1024);
  });
});
