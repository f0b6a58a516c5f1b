// Runtime benchmarks (spec 12 QA-16): creation time and heap of idle runtimes in a real Koishi app with the
// kernel, and the whole kernel's time per step (assembly, context pipeline, fact rendering, attachments, exit)
// over an instantly answering model at 100 and 10,000 stored facts.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
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
import { runtimeHomeOf } from "../../src/runtime/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };

/** Answers every call at once: `read` of a missing local file for the first steps, then `finish`. */
function instantModel(stepsPerTurn: number): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    // The standard context engine summarises a history over its budget once, with a generated (not streamed) call.
    doGenerate: async () => ({ content: [{ type: "text", text: "Summary of the earlier chat." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }),
    doStream: async () => {
      call += 1;
      const name = call % stepsPerTurn === 0 ? "finish" : "read";
      const input = name === "read" ? JSON.stringify({ url: "local://none.txt" }) : "{}";
      const chunks: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "tool-call", toolCallId: `c${call}`, toolName: name, input },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

async function startApp(dataPath: string, model: MockLanguageModelV4): Promise<Context> {
  const app = new Context();
  app.plugin(IshikiService, { dataPath, profiles: { bench: { model: "bench:m", channels: { "bench:bot": ["*"] } } } });
  await app.start();
  app.ishiki.gateway.defineApi("bench", () => ({ specificationVersion: "v4", languageModel: () => model }) as unknown as ProviderV4);
  app.ishiki.gateway.reconfigure({ providers: { bench: { api: "bench" } } });
  app.ishiki.outbound = createMemoryOutboundPort();
  for (let i = 0; i < 200 && app.ishiki.profile("bench")?.status !== "active"; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  return app;
}

const domain = (channelId: string): ChannelDomain => ({ mode: "channel", platform: "bench", selfId: "bot", channelId, isDirect: false });

function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function idleRuntimes(rows: Row[]): Promise<void> {
  const dataPath = await mkdtemp(join(tmpdir(), "ishiki-bench-runtime-"));
  const app = await startApp(dataPath, instantModel(1));
  try {
    for (let i = 0; i < 20; i += 1) await app.ishiki.runtime("bench", domain(`warm-${i}`));
    const count = 500;
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const times: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const start = performance.now();
      await app.ishiki.runtime("bench", domain(`idle-${i}`));
      times.push(performance.now() - start);
    }
    collectGarbage();
    const perRuntime = (process.memoryUsage().heapUsed - before) / count / 1024;
    rows.push({ measure: "runtime creation (home, center, engines, agent, events.jsonl read), median", value: Number(median(times).toFixed(2)), unit: "ms" });
    rows.push({ measure: `heap of one idle runtime (${count} runtimes)`, value: Number(perRuntime.toFixed(1)), unit: "KiB", target: "< 200 KB", pass: perRuntime * 1024 < 200_000 });
  } finally {
    await app.stop();
    await rm(dataPath, { recursive: true, force: true });
  }
}

async function stepOverhead(rows: Row[], facts: number): Promise<void> {
  const dataPath = await mkdtemp(join(tmpdir(), "ishiki-bench-steps-"));
  const stepsPerTurn = 5;
  const home = runtimeHomeOf(join(dataPath, "profiles", "bench"), domain("c1"));
  await mkdir(home, { recursive: true });
  const lines: string[] = [];
  for (let i = 0; i < facts; i += 1) {
    const message = createCustomMessage("ishiki.message.created", {
      timestamp: 1_764_489_600_000 + i,
      platform: "bench",
      selfId: "bot",
      channelId: "c1",
      isDirect: false,
      messageId: `m${i}`,
      content: `message number ${i} with a few words of chat`,
      user: { id: `u${i % 7}`, name: `User ${i % 7}` },
    });
    lines.push(serializeEntry(createEntry("message", message)));
  }
  await writeFile(join(home, "events.jsonl"), lines.join("\n") + "\n");
  const app = await startApp(dataPath, instantModel(stepsPerTurn));
  try {
    const runtime = await app.ishiki.runtime("bench", domain("c1"));
    const perStep: number[] = [];
    for (let turn = 0; turn < 12; turn += 1) {
      const start = performance.now();
      runtime.wake();
      await runtime.agent.wait();
      if (turn >= 2) perStep.push((performance.now() - start) / stepsPerTurn);
    }
    rows.push({ measure: `wall time per step (runtime plugins, exit, events.jsonl writes), ${facts} facts in history`, value: Number(median(perStep).toFixed(2)), unit: "ms" });
  } finally {
    await app.stop();
    await rm(dataPath, { recursive: true, force: true });
  }
}

export default async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  await idleRuntimes(rows);
  await stepOverhead(rows, 100);
  await stepOverhead(rows, 10_000);
  return rows;
}
