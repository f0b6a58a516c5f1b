// Issue 19 item 1: many channels of one profile with 500 deferred tools. The toolsearch index is shared by every
// runtime with the same deferred documents, so creating 1,000 runtimes with toolsearch on costs at most 2x the
// same without it, and the heap grows at most 100 MB more. Real Koishi app, real extension, real runtimes.
// With toolsearch on, creation also queues the baseline catalog (CT-31), each runtime's first line; creation does
// not await it (as a delivered fact is not), and the clock stops once every one of them is written.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ProviderV4 } from "@ai-sdk/provider";
import { jsonSchema, tool, type ToolSet } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { Context } from "koishi";
import { Extension, type ChannelDomain, type ExtensionHost, type ExtensionInstance } from "../../src/extension/index.js";
import { IshikiService } from "../../src/koishi/index.js";
import { createMemoryOutboundPort } from "../../src/tools/index.js";
import { sharedToolIndexes, type ToolDocument } from "../../src/toolsearch/index.js";
import { syntheticTools } from "./synthetic-tools.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

const RUNTIMES = 1000;
const TOOLS = 500;
const documents: ToolDocument[] = syntheticTools(TOOLS, 19);

/** Every runtime gets its own tool objects, as extensions that close over their host build them. */
function freshTools(): ToolSet {
  const tools: ToolSet = {};
  for (const document of documents) {
    const properties = Object.fromEntries(document.params.map((param) => [param, { type: "string" as const }]));
    tools[document.name] = tool({ description: document.description, inputSchema: jsonSchema({ type: "object", properties }) });
  }
  return tools;
}

class ManyToolsExtension extends Extension {
  constructor(ctx: Context) {
    super(ctx, "many");
  }
  [Extension.invoke](_host: ExtensionHost): ExtensionInstance {
    const tools = freshTools();
    return { extendTools: () => tools };
  }
}

function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

const domain = (channelId: string): ChannelDomain => ({ mode: "channel", platform: "bench", selfId: "bot", channelId, isDirect: false });

interface Measured {
  seconds: number;
  heapMB: number;
  indexes: number;
}

async function createRuntimes(toolsearch: boolean): Promise<Measured> {
  const dataPath = await mkdtemp(join(tmpdir(), "ishiki-bench-shared-index-"));
  const app = new Context();
  app.plugin(IshikiService, {
    dataPath,
    profiles: { bench: { model: "bench:m", channels: { "bench:bot": ["*"] }, extends: { many: {} }, toolsearch: { enable: toolsearch } } },
  });
  app.plugin(ManyToolsExtension);
  await app.start();
  const model = new MockLanguageModelV4({});
  app.ishiki.gateway.defineApi("bench", () => ({ specificationVersion: "v4", languageModel: () => model }) as unknown as ProviderV4);
  app.ishiki.gateway.reconfigure({ providers: { bench: { api: "bench" } } });
  app.ishiki.outbound = createMemoryOutboundPort();
  try {
    for (let i = 0; i < 200 && app.ishiki.profile("bench")?.status !== "active"; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < 10; i += 1) await app.ishiki.runtime("bench", domain(`warm-${i}`));
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const start = performance.now();
    const runtimes = [];
    for (let i = 0; i < RUNTIMES; i += 1) runtimes.push(await app.ishiki.runtime("bench", domain(`c-${i}`)));
    // Until every baseline is on disk: the writes overlap the creations, but their cost is counted.
    await Promise.all(runtimes.map((runtime) => runtime.agent.wait()));
    const seconds = (performance.now() - start) / 1000;
    collectGarbage();
    const heapMB = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    return { seconds, heapMB, indexes: sharedToolIndexes.size };
  } finally {
    await app.stop();
    await rm(dataPath, { recursive: true, force: true });
    // The next run starts on a quiet file system: the thousand homes just removed (and the events.jsonl files
    // written) are flushed now, not while the next run creates its own.
    execFileSync("sync");
  }
}

/** The faster of `ROUNDS` alternating runs: other processes on a shared machine only ever add time. */
const ROUNDS = 3;

function best(runs: Measured[]): Measured {
  return runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
}

export default async function run(): Promise<Row[]> {
  const offRuns: Measured[] = [];
  const onRuns: Measured[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    offRuns.push(await createRuntimes(false));
    onRuns.push(await createRuntimes(true));
  }
  const [off, on] = [best(offRuns), best(onRuns)];
  const ratio = on.seconds / off.seconds;
  const extraHeap = on.heapMB - off.heapMB;
  const label = `${RUNTIMES} runtimes, one profile, ${TOOLS} deferred tools`;
  return [
    { measure: `creating ${label}, toolsearch off`, value: Number(off.seconds.toFixed(2)), unit: "s" },
    { measure: `creating ${label}, toolsearch on`, value: Number(on.seconds.toFixed(2)), unit: "s" },
    { measure: `creation time, toolsearch on / off (${label})`, value: Number(ratio.toFixed(2)), unit: "x", target: "<= 2", pass: ratio <= 2 },
    { measure: `heap growth, toolsearch off (${label})`, value: Number(off.heapMB.toFixed(1)), unit: "MB" },
    { measure: `heap growth, toolsearch on (${label})`, value: Number(on.heapMB.toFixed(1)), unit: "MB" },
    { measure: `heap growth above toolsearch off (${label})`, value: Number(extraHeap.toFixed(1)), unit: "MB", target: "<= 100 MB", pass: extraHeap <= 100 },
    { measure: `search indexes alive with ${RUNTIMES} runtimes of one tool set`, value: on.indexes, unit: "indexes", target: "1", pass: on.indexes === 1 },
  ];
}
