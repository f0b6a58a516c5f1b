// Standard context engine (spec 06 EN-13, EN-14): its per-step overhead (prepareEntries + renderMessages) at
// 100 and 10,000 history entries, the first step (which indexes the whole history) apart from the steady state
// (which indexes only what the previous step had not seen).
import {
  createAssistantMessage,
  createCustomMessage,
  createEntry,
  createToolMessage,
  type AgentEntry,
} from "@yesimagent/core";
import { StandardContext } from "../../src/engines/context/standard-instance.js";
import type { ExtensionHost } from "../../src/extension/index.js";
import "../../src/types/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
}

const quiet = { warn() {}, info() {}, debug() {}, error() {} };
const host = { logger: quiet, profileModel: () => { throw new Error("no model in the benchmark"); } } as unknown as ExtensionHost;

let counter = 0;

/** One turn's part of the history: a fact, turn.start, a call, its result, turn.done. */
function turnEntries(): AgentEntry[] {
  counter += 1;
  const turnId = `t${counter}`;
  const fact = createCustomMessage("ishiki.message.created", {
    timestamp: Date.UTC(2026, 10, 30, 1, 2),
    platform: "mock",
    selfId: "bot",
    channelId: "c1",
    isDirect: false,
    messageId: `m${counter}`,
    content: `message number ${counter} `.padEnd(200, "."),
    user: { id: "u1", name: "Alice" },
  });
  return [
    createEntry("message", fact),
    createEntry("event", { type: "turn.start", turnId }, { turnId }),
    createEntry("message", createAssistantMessage([{ type: "tool-call", toolCallId: `c${counter}`, toolName: "finish", input: {} }]), { turnId }),
    createEntry("message", createToolMessage([{ type: "tool-result", toolCallId: `c${counter}`, toolName: "finish", output: { type: "json", value: { ok: true } } }]), { turnId }),
    createEntry("event", { type: "turn.done", turnId, steps: 1 }, { turnId }),
  ];
}

function history(size: number): AgentEntry[] {
  const entries: AgentEntry[] = [];
  while (entries.length < size) entries.push(...turnEntries());
  return entries.slice(0, size);
}

async function step(engine: StandardContext, entries: readonly AgentEntry[]): Promise<number> {
  const request = { turnId: "bench", signal: new AbortController().signal };
  const kept = await engine.prepareEntries(entries, request);
  const messages = kept.flatMap((entry) => (entry.type === "message" ? [entry.data] : []));
  return engine.renderMessages(messages, request).length;
}

async function measure(size: number): Promise<Row[]> {
  const entries = history(size);
  const engine = new StandardContext(host, { maxTokens: 32_000, refillRatio: 0.8 });
  const coldStart = performance.now();
  let shown = await step(engine, entries);
  const cold = performance.now() - coldStart;

  const rounds = 2000;
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) shown = await step(engine, entries);
  const warm = (performance.now() - started) / rounds;

  // A new turn lands between steps: the step indexes its five entries and cuts again.
  const growing = 200;
  const grownStart = performance.now();
  for (let round = 0; round < growing; round += 1) {
    entries.push(...turnEntries());
    await step(engine, entries);
  }
  const grown = (performance.now() - grownStart) / growing;
  return [
    { measure: `first step, ${size} entries (indexes all)`, value: cold.toFixed(3), unit: "ms" },
    { measure: `per step, ${size} entries`, value: (warm * 1000).toFixed(1), unit: "µs", target: "< 1 ms" },
    { measure: `per step after a new turn, from ${size} entries`, value: (grown * 1000).toFixed(1), unit: "µs", target: "< 1 ms" },
    { measure: `messages shown at ${size} entries (maxTokens 32000)`, value: shown, unit: "messages" },
  ];
}

export default async function bench(): Promise<Row[]> {
  await measure(100);
  return [...(await measure(100)), ...(await measure(10_000))];
}
