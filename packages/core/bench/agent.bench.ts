// Agent core benchmarks (spec 12 QA-16): cold replay of a 100k-entry events.jsonl, a 10-entry append, and the
// kernel's per-step overhead over an instantly answering model at 100, 10k and 100k history entries.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonSchema, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import {
  createAgent,
  createAssistantMessage,
  createEntry,
  createJsonlStorage,
  createMemoryStorage,
  createToolMessage,
  createUserMessage,
  serializeEntry,
  type AgentEntry,
  type AgentPlugin,
} from "../src/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
}

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
let callCount = 0;

/**
 * A model that answers at once with a call to `noop`, so every turn runs `maxSteps` steps: what remains of a
 * step's time is the AI SDK's and the kernel's.
 */
const instantModel = new MockLanguageModelV4({
  doStream: async () => {
    callCount += 1;
    const parts = [
      { type: "stream-start", warnings: [] },
      { type: "tool-call", toolCallId: `call-${callCount}`, toolName: "noop", input: "{}" },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ];
    return {
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part as never);
          controller.close();
        },
      }),
    };
  },
});
const noop = tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => "ok" });

/** A realistic mix of turns: lifecycle events, user text, a tool call with its result, a reply. */
function history(count: number): AgentEntry[] {
  const entries: AgentEntry[] = [];
  for (let turn = 0; entries.length < count; turn += 1) {
    const turnId = `turn-${turn}`;
    const call = `call-${turn}`;
    entries.push(
      createEntry("event", { type: "turn.start", turnId }, { turnId }),
      createEntry("message", createUserMessage(`Message ${turn}: could you look at the notes in workspace and tell me what is left to do today?`), { turnId }),
      createEntry("message", createAssistantMessage([{ type: "tool-call", toolCallId: call, toolName: "read", input: { url: "workspace:///home/workspace/notes.txt" } }], { finishReason: "tool-calls" }), { turnId }),
      createEntry("message", createToolMessage([{ type: "tool-result", toolCallId: call, toolName: "read", output: { type: "text", value: "TODO: buy milk\nTODO: call Bob\ndone: laundry" } }]), { turnId }),
      createEntry("message", createAssistantMessage("Two items are left: buy milk and call Bob.", { finishReason: "stop" }), { turnId }),
      createEntry("event", { type: "turn.done", turnId, steps: 2 }, { turnId }),
    );
  }
  return entries.slice(0, count);
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const ms = (value: number): number => Number(value.toFixed(3));

/** Keeps the newest entries, as a context engine's window would; the kernel itself never trims history. */
const WINDOW = 24;
const windowPlugin: AgentPlugin = { name: "window", transformEntries: (entries) => entries.slice(-WINDOW) };
const STEPS = 25;

/**
 * The kernel's own time per step, measured at its boundaries around the model call: from the end of the
 * previous step (its `onStepFinish`) to `prepareStep` (snapshot, pipes, projection, repair), plus from the
 * model's `finish` part to `turn.step` (the step's batch append, `message.appended`, the joined flush).
 * The AI SDK's streaming in between is excluded; the full step time is reported beside it.
 */
async function stepOverhead(size: number, entries: AgentEntry[]): Promise<Row[]> {
  const kernel: number[] = [];
  const full: number[] = [];
  let stepEnd: number | undefined;
  let prepared = 0;
  let finished = 0;
  const probe: AgentPlugin = {
    name: "probe",
    enforce: "post",
    prepareStep: () => void (prepared = performance.now()),
    onStepFinish: () => void (stepEnd = performance.now()),
  };
  const agent = createAgent({ model: instantModel, storage: createMemoryStorage(entries), tools: { noop }, plugins: [windowPlugin, probe], maxSteps: STEPS });
  agent.channel.subscribe("stream", ({ part }) => void (part.type === "finish" && (finished = performance.now())));
  agent.channel.subscribe("agent", (event) => {
    if (event.type === "turn.start") stepEnd = undefined;
    if (event.type !== "turn.step" || stepEnd === undefined) return;
    const now = performance.now();
    kernel.push(prepared - stepEnd + (now - finished));
    full.push(now - stepEnd);
  });
  await agent.init();
  for (let turn = 0; turn < 14; turn += 1) {
    // The first turns warm the JIT and are not counted.
    if (turn === 2) {
      kernel.length = 0;
      full.length = 0;
    }
    agent.continue();
    await agent.wait();
  }
  const label = size.toLocaleString("en-US");
  return [
    { measure: `step at ${label} history entries, AI SDK included (median)`, value: ms(median(full)), unit: "ms" },
    { measure: `kernel overhead per step at ${label} entries (median)`, value: ms(median(kernel)), unit: "ms", target: "< 2 ms" },
  ];
}

export default async function agentBench(): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), "ishiki-agent-bench-"));
  try {
    const rows: Row[] = [];
    const path = join(dir, "events.jsonl");
    // Written without keeping the entries alive, so the replay does not pay for collecting the writer's heap.
    await writeFile(path, history(100_000).map((entry) => `${serializeEntry(entry)}\n`).join(""));

    const loads: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const agent = createAgent({ model: instantModel, storage: createJsonlStorage(path) });
      await agent.init();
      const used = process.cpuUsage(cpuStart);
      loads.push(performance.now() - start);
      cpu.push((used.user + used.system) / 1000);
    }
    rows.push({ measure: "replay of a 100,000-entry events.jsonl (read, parse, init), wall", value: ms(median(loads)), unit: "ms", target: "< 1000 ms" });
    // CPU time shows the cost apart from other processes competing for the machine.
    rows.push({ measure: "replay of a 100,000-entry events.jsonl, CPU time", value: ms(median(cpu)), unit: "ms" });

    const appendPath = join(dir, "append.jsonl");
    const storage = createJsonlStorage(appendPath);
    const batch = history(10);
    const appends: number[] = [];
    for (let i = 0; i < 300; i += 1) {
      const start = performance.now();
      await storage.append(...batch);
      appends.push(performance.now() - start);
    }
    rows.push({ measure: "events.jsonl append of a 10-entry batch, p50", value: ms(median(appends)), unit: "ms", target: "< 1 ms" });
    rows.push({ measure: "events.jsonl append of a 10-entry batch, p99", value: ms(percentile(appends, 0.99)), unit: "ms" });

    // A discarded round first, so the first size measured does not also pay for warming the JIT.
    await stepOverhead(100, history(100));
    for (const size of [100, 10_000, 100_000]) rows.push(...(await stepOverhead(size, history(size))));
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
