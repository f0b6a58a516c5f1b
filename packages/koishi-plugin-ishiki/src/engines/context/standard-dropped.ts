import type { AgentEntry } from "@yesimagent/core";
import { RecordBudget, summaryRecords, type SummaryRecord } from "./standard-summariser.js";

/** The agent's retained tail as the last step received it: `entries[0]` is at stream position `offset`. */
export interface HeldTail {
  entries: readonly AgentEntry[];
  offset: number;
}

export interface DroppedRecords {
  records: SummaryRecord[];
  /** The entry at `to - 1`: the one the anchor names. */
  lastEntry: { id: string; position: number };
}

/**
 * What a compaction summarises (EN-15): the newest records of the dropped positions `[from, to)` whose contents
 * fit `maxChars` (at least one), and the entry at `to - 1`. The result is what `RecordBudget` keeps over a
 * forward pass of `[from, to)`, the longest suffix that fits, but it is taken backward from the tail held in
 * memory, and the stream on disk is read (`scan`) only when the budget reaches below that tail. The retained
 * tail starts at the widest window, so a compaction usually costs the window, not the file (issue 19).
 */
export async function droppedRecords(
  tail: HeldTail | undefined,
  from: number,
  to: number,
  maxChars: number,
  scan: (visit: (entry: AgentEntry) => void) => Promise<void>,
): Promise<DroppedRecords> {
  const held = (position: number): AgentEntry | undefined =>
    tail !== undefined && position >= tail.offset && position < tail.offset + tail.entries.length ? tail.entries[position - tail.offset] : undefined;
  const last = held(to - 1);
  // Newest first.
  const newest: SummaryRecord[] = [];
  let chars = 0;
  let position = to - 1;
  if (last !== undefined) {
    for (; position >= from; position -= 1) {
      const entry = held(position);
      if (entry === undefined) break;
      const [record] = summaryRecords([entry]);
      if (record === undefined) continue;
      if (newest.length > 0 && chars + record.content.length > maxChars) return { records: newest.reverse(), lastEntry: { id: last.id, position: to - 1 } };
      newest.push(record);
      chars += record.content.length;
    }
    if (position < from) return { records: newest.reverse(), lastEntry: { id: last.id, position: to - 1 } };
  }
  // The rest, `[from, position]`, lies below the tail: streamed from disk into what budget is left.
  const below = position + 1;
  const budget = new RecordBudget(maxChars - chars);
  let lastEntry = last === undefined ? undefined : { id: last.id, position: to - 1 };
  let at = 0;
  await scan((entry) => {
    if (at >= from && at < below) budget.push(summaryRecords([entry]));
    if (at === to - 1) lastEntry ??= { id: entry.id, position: at };
    at += 1;
  });
  if (lastEntry === undefined) throw new Error("the stream on disk is shorter than the history in memory");
  let older = budget.take();
  // RecordBudget keeps one record even over its budget; below records already taken, only what fits may join.
  if (newest.length > 0 && older.length === 1 && older[0].content.length > maxChars - chars) older = [];
  return { records: [...older, ...newest.reverse()], lastEntry };
}
