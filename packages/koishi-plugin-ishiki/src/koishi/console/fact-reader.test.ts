import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEntry, createUserMessage, serializeEntry } from "@yesimagent/core";
import { FactReader } from "./fact-reader.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const line = (text: string) => `${serializeEntry(createEntry("message", createUserMessage(text)))}\n`;
const texts = (entries: Array<{ data: unknown }>) => entries.map((entry) => (entry.data as { content: string }).content);

async function stream(count: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-fact-reader-"));
  dirs.push(dir);
  const path = join(dir, "events.jsonl");
  await writeFile(path, Array.from({ length: count }, (_, index) => line(`m${index}`)).join(""));
  return path;
}

describe("the Ishiki page reads a stream in slices, never whole (issues 19 and 21)", () => {
  it("keeps only the range asked for: the last n, a range, a range past the end; none for a missing file", async () => {
    const path = await stream(2_500);
    const reader = new FactReader();
    const last = await reader.slice(path, { last: 3 });
    expect({ ...last, entries: texts(last.entries) }).toEqual({ entries: ["m2497", "m2498", "m2499"], from: 2497, total: 2500 });
    const range = await reader.slice(path, { from: 10, to: 13 });
    expect({ ...range, entries: texts(range.entries) }).toEqual({ entries: ["m10", "m11", "m12"], from: 10, total: 2500 });
    expect(await reader.slice(path, { from: 3000, to: 3100 })).toEqual({ entries: [], from: 2500, total: 2500 });
    expect(await reader.slice(join(path, "..", "missing.jsonl"), { last: 5 })).toEqual({ entries: [], from: 0, total: 0 });
  });

  it("sees an append: a slice is kept only while the file is unchanged, and a torn tail waits for its newline", async () => {
    const path = await stream(4);
    const reader = new FactReader();
    expect(texts((await reader.slice(path, { last: 2 })).entries)).toEqual(["m2", "m3"]);
    await appendFile(path, line("m4") + line("m5").slice(0, 20));
    const after = await reader.slice(path, { last: 2 });
    expect({ entries: texts(after.entries), total: after.total }).toEqual({ entries: ["m3", "m4"], total: 5 });
  });
});
