import { describe, expect, it } from "vitest";
import { createEntry, createUserMessage, type AgentEntry } from "@yesimagent/core";
import { droppedRecords } from "../src/engines/context/standard-dropped.js";
import { RecordBudget, summaryRecords } from "../src/engines/context/standard-summariser.js";
import { seededRandom } from "../src/runtime/seeded-random.js";

/** A stream of user messages of random length, with some entries that carry no record (state entries). */
function stream(random: () => number, length: number): AgentEntry[] {
  return Array.from({ length }, (_, index) =>
    random() < 0.1 ? createEntry("state", { version: index }) : createEntry("message", createUserMessage(`m${index} ${"x".repeat(Math.floor(random() * 200))}`)),
  );
}

/** What a forward pass over the whole stream keeps: the reference the backward collection must equal. */
function forward(entries: readonly AgentEntry[], from: number, to: number, maxChars: number) {
  const budget = new RecordBudget(maxChars);
  for (let position = from; position < to; position += 1) budget.push(summaryRecords([entries[position]]));
  return { records: budget.take(), lastEntry: { id: entries[to - 1].id, position: to - 1 } };
}

describe("EN-15 compaction records (issue 19): taken from the tail in memory, read from disk only below it", () => {
  it("equal the forward pass's for any tail, range and budget; the disk is read only when the budget reaches below the tail", async () => {
    const random = seededRandom(15);
    let diskReads = 0;
    let tailOnly = 0;
    for (let round = 0; round < 400; round += 1) {
      const entries = stream(random, 50 + Math.floor(random() * 100));
      const to = 1 + Math.floor(random() * entries.length);
      const from = Math.floor(random() * to);
      const offset = Math.floor(random() * entries.length);
      const maxChars = Math.floor(random() * 3000);
      const tail = { entries: entries.slice(offset), offset };
      let read = false;
      const scan = async (visit: (entry: AgentEntry) => void) => {
        read = true;
        entries.forEach(visit);
      };
      expect(await droppedRecords(tail, from, to, maxChars, scan)).toEqual(forward(entries, from, to, maxChars));
      if (read) diskReads += 1;
      else tailOnly += 1;
      if (offset <= from) expect(read).toBe(false);
    }
    // Both paths were taken.
    expect(diskReads).toBeGreaterThan(50);
    expect(tailOnly).toBeGreaterThan(50);
  });
});
