// The Ishiki console page's server side (issue 21): one timeline page of a 10,000-fact stream read cold (the
// kernel's jsonl reader) and warm (cached while the file is unchanged), and the per-fact row mapping.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createAssistantMessage, createCustomMessage, createEntry, createToolMessage, serializeEntry, type AgentEntry } from "@yesimagent/core";
import { FactReader, type FactSlice } from "../../src/koishi/console/fact-reader.js";
import { foldRows, rowsOf } from "../../src/koishi/console/timeline.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
}

const FACTS = 10_000;

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1];
}

/** A turn's worth of facts, repeated: a message in, a model step with a tool call, its result, the turn's end. */
function stream(): AgentEntry[] {
  const entries: AgentEntry[] = [];
  for (let turn = 0; entries.length < FACTS; turn += 1) {
    const at = { timestamp: 1_700_000_000_000 + turn, turnId: `t${turn}` };
    entries.push(createEntry("message", createCustomMessage("ishiki.message.created", { timestamp: at.timestamp, platform: "onebot", selfId: "1", channelId: "g", isDirect: false, messageId: `m${turn}`, content: `message ${turn} `.repeat(20), user: { id: "u", name: "User" } }), at));
    entries.push(createEntry("message", createAssistantMessage([{ type: "tool-call", toolCallId: `c${turn}`, toolName: "codemode", input: { js: "return 1;\n".repeat(30) } }]), at));
    entries.push(createEntry("message", createToolMessage([{ type: "tool-result", toolCallId: `c${turn}`, toolName: "codemode", output: { type: "json", value: { rows: Array.from({ length: 40 }, (_, index) => index) } } }]), at));
    entries.push(createEntry("event", { type: "turn.done", turnId: at.turnId, steps: 1, totalUsage: { inputTokens: 100, outputTokens: 10, totalTokens: 110 } as never }, at));
  }
  return entries;
}

export default async function bench(): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-console-bench-"));
  try {
    const path = join(dir, "events.jsonl");
    const entries = stream();
    await writeFile(path, entries.map((entry) => `${serializeEntry(entry)}\n`).join(""));
    const page = ({ entries: read, from }: FactSlice) => foldRows(read.flatMap((entry, index) => rowsOf(entry, from + index + 1)));
    const cold: number[] = [];
    const warm: number[] = [];
    for (let round = 0; round < 7; round += 1) {
      const reader = new FactReader();
      let start = performance.now();
      page(await reader.slice(path, { last: 100 }));
      cold.push(performance.now() - start);
      start = performance.now();
      page(await reader.slice(path, { last: 100 }));
      warm.push(performance.now() - start);
    }
    const mapped: number[] = [];
    for (let round = 0; round < 7; round += 1) {
      const start = performance.now();
      for (const [index, entry] of entries.entries()) rowsOf(entry, index + 1);
      mapped.push(((performance.now() - start) * 1000) / entries.length);
    }
    return [
      { measure: `console timeline page of a ${FACTS}-fact stream, first read, streamed (median of 7)`, value: Number(median(cold).toFixed(1)), unit: "ms", target: "< 500 ms" },
      { measure: "console timeline page, stream unchanged since the last read (median of 7)", value: Number(median(warm).toFixed(2)), unit: "ms", target: "< 20 ms" },
      { measure: "console rows of one fact (median of 7 rounds over the stream)", value: Number(median(mapped).toFixed(2)), unit: "µs", target: "< 50 µs" },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
