// Issue 19: history held by the window. For each built-in context engine, one app keeps the whole history (the
// engine behind a wrapper without its retention, as a third-party engine) and one keeps only what the engine's
// retention asks for and is restarted every other round; both get the same facts and wakes, and every step's
// prompt (and every summariser prompt) must be the same in both.
import { copyFile, mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart, ProviderV4 } from "@ai-sdk/provider";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import { Context } from "koishi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCustomMessage, createEntry, serializeEntry } from "@yesimagent/core";
import { inspectAgent } from "../../core/src/diagnostics.js";
import { ContextEngine, type ContextEngineInstance, type EngineConfig } from "../src/engines/index.js";
import type { ExtensionHost } from "../src/extension/index.js";
import { IshikiService } from "../src/koishi/index.js";
import { runtimeHomeOf, runtimesStopped, type Runtime } from "../src/runtime/index.js";
import { createMemoryOutboundPort } from "../src/tools/index.js";
import { channel, fact, until } from "./runtime-app.js";
import { stopApp } from "./stop-app.js";

/** More than the agent's trim slack (1,024 entries), so the retained app really drops entries at its reads. */
const PRELOADED = 2_500;
const ROUNDS = 6;

interface Recorder {
  provider: ProviderV4;
  chats: LanguageModelV4CallOptions[];
  summaries: LanguageModelV4CallOptions[];
}

/** Answers every step with `finish` (call ids counted per recorder) and reports no input tokens, so no budget is learned. */
function recorder(): Recorder {
  const chats: LanguageModelV4CallOptions[] = [];
  const summaries: LanguageModelV4CallOptions[] = [];
  const usage = { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
  const model = new MockLanguageModelV4({
    doStream: async (call) => {
      chats.push(call);
      const chunks: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "tool-call", toolCallId: `call-${chats.length}`, toolName: "finish", input: "{}" },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
    doGenerate: async (call) => {
      summaries.push(call);
      return { content: [{ type: "text", text: `SUMMARY ${summaries.length}` }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
  const provider = { specificationVersion: "v4", languageModel: () => model } as unknown as ProviderV4;
  return { provider, chats, summaries };
}

/** Instances the probe created, to wait for a running compaction. */
const instances: ContextEngineInstance[] = [];

/**
 * `context.engine: probe` runs the built-in engine `probe.inner`; with `probe.whole` its instance is handed over
 * without the retention member, so the agent keeps the whole history, as for any third-party engine.
 */
class ProbeContext extends ContextEngine<"standard"> {
  constructor(ctx: Context) {
    super(ctx, "probe" as "standard");
  }
  async [ContextEngine.invoke](host: ExtensionHost, config: EngineConfig<never>): Promise<ContextEngineInstance> {
    const { inner, whole } = (config as unknown as { probe: { inner: string; whole: boolean } }).probe;
    const service = this.ctx.get(ContextEngine.GetName(inner)) as ContextEngine;
    const instance = await service[ContextEngine.invoke](host, config as never);
    instances.push(instance);
    if (!whole) return instance;
    return {
      ...(instance.attach ? { attach: (agent) => instance.attach!(agent) } : {}),
      ...(instance.prepareEntries ? { prepareEntries: (entries, request) => instance.prepareEntries!(entries, request) } : {}),
      ...(instance.renderMessages ? { renderMessages: (messages, request) => instance.renderMessages!(messages, request) } : {}),
      ...(instance.instructions ? { instructions: () => instance.instructions!() } : {}),
    };
  }
}

interface Side {
  dataPath: string;
  home: string;
  model: Recorder;
  app?: Context;
  runtime?: Runtime;
}

const blocks: Record<string, Record<string, unknown>> = {
  // Default rate 0.5: a ceiling of 4,000 chars (about ten facts); the widest budget keeps about fifty.
  standard: { standard: { maxTokens: 2_000 } },
  narrative: { narrative: { maxMessages: 12 } },
  v3: { v3: { maxMessages: 12, keepFullTurnCount: 1, memoryBlocks: false } },
};

async function open(side: Side, inner: string, whole: boolean): Promise<void> {
  const app = new Context();
  app.plugin(IshikiService, { dataPath: side.dataPath, profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, context: { engine: "probe", probe: { inner, whole }, ...blocks[inner] } } } });
  app.plugin(ProbeContext);
  await app.start();
  app.ishiki.gateway.defineApi("recorder", () => side.model.provider);
  app.ishiki.gateway.reconfigure({ providers: { mock: { api: "recorder" } } });
  app.ishiki.outbound = createMemoryOutboundPort();
  await until(() => app.ishiki.profile("p")?.status === "active");
  side.app = app;
  side.runtime = await app.ishiki.runtime("p", channel);
}

/** Stops one side; the other keeps running (so not `runtimesStopped`, which waits for every runtime). */
async function close(side: Side): Promise<void> {
  await side.runtime?.stop();
  if (side.app) await stopApp(side.app);
  side.app = undefined;
  side.runtime = undefined;
}

/** The facts both apps start from, written straight to the file (as a long-lived channel would have them). */
async function preload(path: string): Promise<void> {
  const out = createWriteStream(path);
  for (let index = 0; index < PRELOADED; index += 1) {
    const data = fact(`old message ${index} `.padEnd(400, "."), { user: { id: `u${index % 5}`, name: `User ${index % 5}` } });
    const message = createCustomMessage("ishiki.message.created", data.data as never);
    if (!out.write(`${serializeEntry(createEntry("message", { ...message, timestamp: data.timestamp }))}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

/**
 * One round on one side: a wake first (so the first step after a restart reads exactly the history read back),
 * the turn and any compaction it started, then three facts for the next round.
 */
async function round(side: Side, facts: Parameters<Runtime["deliver"]>[0][]): Promise<void> {
  const runtime = side.runtime!;
  runtime.wake();
  await runtime.agent.wait();
  await until(() => instances.every((instance) => (instance as unknown as { job?: unknown }).job === undefined), 10_000);
  for (const event of facts) await runtime.deliver(event);
}

const sides: Side[] = [];

beforeEach(() => {
  // The narrative and v3 renderings read the clock: both apps must see the same one.
  vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 10, 30, 12, 0) });
});

afterEach(async () => {
  vi.useRealTimers();
  for (const side of sides) await close(side);
  await runtimesStopped();
  for (const side of sides.splice(0)) await rm(side.dataPath, { recursive: true, force: true });
  instances.length = 0;
});

describe("issue 19: the projection with a retained history equals the one with the whole history, across restarts", () => {
  for (const inner of ["standard", "narrative", "v3"]) {
    it(`${inner}: every step's prompt is the same with ${PRELOADED.toLocaleString("en-US")} facts before the window and a restart every other round`, async () => {
      const [whole, kept] = await Promise.all(
        [0, 1].map(async () => {
          const dataPath = await mkdtemp(join(tmpdir(), "ishiki-replay-"));
          const side: Side = { dataPath, home: runtimeHomeOf(join(dataPath, "profiles", "p"), channel), model: recorder() };
          sides.push(side);
          await mkdir(side.home, { recursive: true });
          return side;
        }),
      );
      await preload(join(whole.home, "events.jsonl"));
      await copyFile(join(whole.home, "events.jsonl"), join(kept.home, "events.jsonl"));
      await open(whole, inner, true);
      await open(kept, inner, false);
      for (let index = 1; index <= ROUNDS; index += 1) {
        const facts = [1, 2, 3].map((n) => fact(`round ${index} message ${n} `.padEnd(300, "-")));
        await round(whole, facts);
        await round(kept, facts);
        if (index % 2 === 0 && index < ROUNDS) {
          await close(kept);
          // The stop saved a history checkpoint: the restart resumes from it instead of reading every line.
          expect((await stat(join(kept.home, "events.checkpoint.json"))).isFile()).toBe(true);
          await open(kept, inner, false);
        }
      }
      expect(kept.model.chats.length).toBe(ROUNDS);
      // Entries written live have random ids in each app; the summariser's records name them.
      const prompts = (calls: LanguageModelV4CallOptions[]) => calls.map((call) => JSON.stringify(call.prompt).replace(/\\"(entryId|turnId)\\":\\"[^\\]*\\"/g, "$1"));
      expect(prompts(kept.model.chats)).toEqual(prompts(whole.model.chats));
      expect(prompts(kept.model.summaries)).toEqual(prompts(whole.model.summaries));
      // The window is smaller than the history: the oldest fact never reaches the model.
      expect(JSON.stringify(kept.model.chats.at(-1)!.prompt)).not.toContain("old message 0 ");
      // The retained app holds a tail; the whole one everything.
      expect(inspectAgent(kept.runtime!.agent).historySize()).toBeLessThan(PRELOADED / 2);
      expect(inspectAgent(whole.runtime!.agent).historySize()).toBeGreaterThan(PRELOADED);
    }, 60_000);
  }
});
