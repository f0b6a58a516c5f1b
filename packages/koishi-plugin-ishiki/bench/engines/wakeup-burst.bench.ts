// Wakeup benchmark (spec 12 QA-16): a burst of 10 group messages of which at least one is a wake hit, default
// engine and debounce (standard, 1500 / 6000 ms), in a real Koishi app with the kernel: turns opened per burst
// (target 1) and the wake latency after the last message (debounce plus turn start).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4StreamPart, ProviderV4 } from "@ai-sdk/provider";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import { Context } from "koishi";
import type { ChannelDomain } from "../../src/extension/index.js";
import { IshikiService } from "../../src/koishi/index.js";
import { createMemoryOutboundPort } from "../../src/tools/index.js";
import type { IshikiEvent } from "../../src/types/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
const BURST = 10;
const GAP_MS = 20;
// Where the hit sits in each burst: first, middle, last, and two hits.
const HITS: number[][] = [[0], [4], [9], [2, 7]];

/** Answers `finish` at once and records when each turn's first model call started. */
function instantModel(calls: number[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async () => {
      calls.push(performance.now());
      const chunks: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "tool-call", toolCallId: `c${calls.length}`, toolName: "finish", input: "{}" },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

function message(channelId: string, index: number, hit: boolean): IshikiEvent {
  const data = {
    timestamp: Date.now(),
    platform: "bench",
    selfId: "bot",
    channelId,
    isDirect: false,
    messageId: `${channelId}-${index}`,
    content: hit ? `<at id="bot"/> question ${index}` : `chatter ${index}`,
    user: { id: `u${index % 3}`, name: `User ${index % 3}` },
  };
  return { id: `fact-${channelId}-${index}`, timestamp: data.timestamp, role: "custom", type: "ishiki.message.created", data };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export default async function run(): Promise<Row[]> {
  const dataPath = await mkdtemp(join(tmpdir(), "ishiki-bench-wakeup-"));
  const calls: number[] = [];
  const model = instantModel(calls);
  const app = new Context();
  app.plugin(IshikiService, { dataPath, profiles: { bench: { model: "bench:m", channels: { "bench:bot": ["*"] } } } });
  await app.start();
  app.ishiki.gateway.defineApi("bench", () => ({ specificationVersion: "v4", languageModel: () => model }) as unknown as ProviderV4);
  app.ishiki.gateway.reconfigure({ providers: { bench: { api: "bench" } } });
  app.ishiki.outbound = createMemoryOutboundPort();
  for (let i = 0; i < 200 && app.ishiki.profile("bench")?.status !== "active"; i += 1) await sleep(5);

  const turns: number[] = [];
  const latencies: number[] = [];
  try {
    for (const [round, hits] of HITS.entries()) {
      const domain: ChannelDomain = { mode: "channel", platform: "bench", selfId: "bot", channelId: `g${round}`, isDirect: false };
      const runtime = await app.ishiki.runtime("bench", domain);
      const before = calls.length;
      let last = 0;
      for (let index = 0; index < BURST; index += 1) {
        await runtime.deliver(message(domain.channelId, index, hits.includes(index)));
        last = performance.now();
        if (index < BURST - 1) await sleep(GAP_MS);
      }
      // Debounce 1500 ms after the last message, well under the 6000 ms cap; then a margin for a second turn.
      while (calls.length === before && performance.now() - last < 8000) await sleep(5);
      await sleep(2000);
      await runtime.agent.wait();
      turns.push(calls.length - before);
      if (calls.length > before) latencies.push(calls[before] - last);
    }
  } finally {
    await app.stop();
    await rm(dataPath, { recursive: true, force: true });
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const median = sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)];
  const worstTurns = Math.max(...turns);
  return [
    { measure: `turns per burst of ${BURST} messages with a hit (${HITS.length} bursts, max)`, value: worstTurns, unit: "turns", target: "1", pass: turns.every((count) => count === 1) },
    { measure: "wake latency after the last message, median (debounce 1500 ms)", value: Math.round(median), unit: "ms" },
    { measure: "wake latency after the last message, max", value: Math.round(Math.max(...latencies)), unit: "ms" },
  ];
}
