// Long histories (issue 16 item "events.jsonl over V8's string limit", issue 19 item 3): a channel whose
// events.jsonl holds 100,000 and 1,000,000 facts, the larger one over 512 MiB (past V8's longest string, so it
// loads only when read streamed). Measures runtime creation (the replay), the first turn after the restart and
// the heap the runtime holds afterwards: with the built-in context engines the runtime keeps only what a window
// can show (issue 19), so the heap does not grow with the file; the replay still parses every line once.
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { LanguageModelV4StreamPart, ProviderV4 } from "@ai-sdk/provider";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import { Context } from "koishi";
import { createCustomMessage, createEntry, serializeEntry } from "@yesimagent/core";
import type { ChannelDomain } from "../../src/extension/index.js";
import { IshikiService } from "../../src/koishi/index.js";
import { createMemoryOutboundPort } from "../../src/tools/index.js";
import { runtimeHomeOf, runtimesStopped } from "../../src/runtime/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
const domain: ChannelDomain = { mode: "channel", platform: "bench", selfId: "bot", channelId: "c1", isDirect: false };

/** Finishes every turn in one step; a summary request (compaction) gets a fixed text. */
const model = new MockLanguageModelV4({
  doGenerate: async () => ({ content: [{ type: "text", text: "Summary of the earlier chat." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }),
  doStream: async () => {
    const chunks: LanguageModelV4StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "tool-call", toolCallId: `c${Math.random()}`, toolName: "finish", input: "{}" },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ];
    return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
  },
});

function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
}

async function writeFacts(path: string, facts: number, words: number): Promise<number> {
  const out = createWriteStream(path);
  const filler = " lorem ipsum 中文 dolor".repeat(words);
  for (let i = 0; i < facts; i += 1) {
    const message = createCustomMessage("ishiki.message.created", {
      timestamp: 1_764_489_600_000 + i,
      platform: "bench",
      selfId: "bot",
      channelId: "c1",
      isDirect: false,
      messageId: `m${i}`,
      content: `message number ${i}${filler}`,
      user: { id: `u${i % 7}`, name: `User ${i % 7}` },
    });
    if (!out.write(`${serializeEntry(createEntry("message", message))}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return (await stat(path)).size;
}

interface Session {
  created: number;
  firstTurn: number;
  heapMiB: number;
}

/** One app's life: start, create the runtime (its replay), one turn, stop (which saves the history checkpoint). */
async function session(dataPath: string): Promise<Session> {
  const app = new Context();
  app.plugin(IshikiService, { dataPath, profiles: { bench: { model: "bench:m", channels: { "bench:bot": ["*"] } } } });
  await app.start();
  app.ishiki.gateway.defineApi("bench", () => ({ specificationVersion: "v4", languageModel: () => model }) as unknown as ProviderV4);
  app.ishiki.gateway.reconfigure({ providers: { bench: { api: "bench" } } });
  app.ishiki.outbound = createMemoryOutboundPort();
  for (let i = 0; i < 200 && app.ishiki.profile("bench")?.status !== "active"; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  try {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const runtime = await app.ishiki.runtime("bench", domain);
    const created = performance.now() - started;
    runtime.wake();
    await runtime.agent.wait();
    const firstTurn = performance.now() - started;
    collectGarbage();
    return { created, firstTurn, heapMiB: (process.memoryUsage().heapUsed - before) / 2 ** 20 };
  } finally {
    await app.stop();
    await runtimesStopped();
  }
}

/**
 * A file written without the bot (no checkpoint: the first read parses every line), then a restart of the bot
 * that ran on it (the checkpoint its stop saved: only what follows it is read).
 */
async function restart(rows: Row[], facts: number, words: number): Promise<void> {
  const dataPath = await mkdtemp(join(tmpdir(), "ishiki-bench-history-"));
  const home = runtimeHomeOf(join(dataPath, "profiles", "bench"), domain);
  await mkdir(home, { recursive: true });
  try {
    const bytes = await writeFacts(join(home, "events.jsonl"), facts, words);
    const size = `${facts.toLocaleString("en-US")} facts, ${(bytes / 2 ** 20).toFixed(0)} MiB`;
    const cold = await session(dataPath);
    rows.push({ measure: `first read of a file without checkpoint: runtime creation, ${size}`, value: Number(cold.created.toFixed(0)), unit: "ms" });
    rows.push({ measure: `first read of a file without checkpoint: to the end of the first turn, ${size}`, value: Number(cold.firstTurn.toFixed(0)), unit: "ms" });
    const heapRow: Row = { measure: `heap held after the whole replay and one turn, ${size}`, value: Number(cold.heapMiB.toFixed(0)), unit: "MiB" };
    // Issue 19: the history held is bounded by the context window, not by the file.
    if (facts >= 1_000_000) Object.assign(heapRow, { target: "< 50 MB", pass: cold.heapMiB * 2 ** 20 < 50e6 });
    rows.push(heapRow);
    if (bytes > 512 * 2 ** 20) rows.push({ measure: `an events.jsonl over V8's longest string loads (${size})`, value: "loaded", unit: "", target: "loads", pass: true });
    const again = await session(dataPath);
    rows.push({ measure: `restart (checkpoint saved at stop): runtime creation, ${size}`, value: Number(again.created.toFixed(0)), unit: "ms" });
    const turnRow: Row = { measure: `restart (checkpoint saved at stop): to the end of the first turn, ${size}`, value: Number(again.firstTurn.toFixed(0)), unit: "ms" };
    if (facts === 100_000) Object.assign(turnRow, { target: "< 300 ms", pass: again.firstTurn < 300 });
    rows.push(turnRow);
    rows.push({ measure: `heap held after a restart and one turn, ${size}`, value: Number(again.heapMiB.toFixed(0)), unit: "MiB" });
  } finally {
    await rm(dataPath, { recursive: true, force: true });
  }
}

export default async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  await restart(rows, 100_000, 1);
  // ~600 bytes a line: the file passes 512 MiB.
  await restart(rows, 1_000_000, 18);
  return rows;
}
