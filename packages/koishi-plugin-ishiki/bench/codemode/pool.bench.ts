import { readdirSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createCodemodeSandbox, defaultCodemodeWorkers, type CodemodeSandbox, type CodemodeToolCall } from "../../src/codemode/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

const MB = 1024 * 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** OS threads of this process (Linux): worker threads show up here, whatever the pool reports. */
const threads = () => readdirSync("/proc/self/task").length;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settledRss(): Promise<number> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  // Terminated workers free their memory on their own threads; give them a moment, then collect.
  await pause(500);
  gc();
  await pause(100);
  return process.memoryUsage.rss();
}

/**
 * Issue 19: 100 channels, each with its own runtime's sandbox (as `ToolSurface` creates them, on the shared
 * pool), each running one program; four memory bombs with the default 256 MiB limit; a new channel's first
 * program once the pool is warm.
 */
export default async function poolBench(): Promise<Row[]> {
  const rows: Row[] = [];
  const size = defaultCodemodeWorkers();
  const tools = [{ name: "echo" }];
  const echo: CodemodeToolCall = async (_name, input) => input;
  const threadsBefore = threads();
  const rssBefore = await settledRss();

  const channels: CodemodeSandbox[] = [];
  for (let i = 0; i < 100; i++) channels.push(createCodemodeSandbox({}));
  const outcomes = await Promise.all(channels.map((sandbox, i) => sandbox.run({ js: `const r = await tools.echo({ i: ${i} }); return r.i`, tools, callTool: echo })));
  const allOk = outcomes.every((outcome, i) => outcome.ok && outcome.value === i);
  const workerThreads = threads() - threadsBefore;
  const rssAfterChannels = await settledRss();
  rows.push({ measure: `100 channels each ran a program (all correct: ${allOk}): pool workers`, value: channels[0].stats().workers, unit: "workers", target: `<= ${size}`, pass: channels[0].stats().workers <= size && allOk });
  rows.push({ measure: "100 channels: OS threads added (workers plus their helper threads)", value: workerThreads, unit: "threads", target: "report" });
  rows.push({ measure: "100 channels: RSS growth", value: Math.round((rssAfterChannels - rssBefore) / MB), unit: "MB", target: "< 200 MB", pass: rssAfterChannels - rssBefore < 200 * MB });

  const bomb = "const a = []; while (true) a.push('x'.repeat(1000000) + a.length);";
  const bombs = await Promise.all(channels.slice(0, 4).map((sandbox) => sandbox.run({ js: bomb, tools, callTool: echo })));
  const allContained = bombs.every((outcome) => !outcome.ok && outcome.error.startsWith("codemode: memory limit exceeded"));
  // The replacements start at once; let them finish loading before measuring.
  await channels[0].run({ js: "return 1", tools, callTool: echo });
  const rssAfterBombs = await settledRss();
  rows.push({ measure: `after four memory bombs (all contained: ${allContained}): RSS above the start`, value: Math.round((rssAfterBombs - rssBefore) / MB), unit: "MB", target: "< 100 MB", pass: rssAfterBombs - rssBefore < 100 * MB && allContained });
  rows.push({ measure: "after four memory bombs: workers replaced", value: channels[0].stats().replaced, unit: "workers", target: "report" });

  // A new channel with the pool warm: its runtime creates a sandbox and runs its first program.
  const first: number[] = [];
  for (let i = 0; i < 30; i++) {
    await pause(5);
    const started = performance.now();
    const sandbox = createCodemodeSandbox({});
    await sandbox.run({ js: "return 1 + 1", tools, callTool: echo });
    first.push(performance.now() - started);
    channels.push(sandbox);
  }
  rows.push({ measure: "first program in a new channel, pool warm (median)", value: Number(median(first).toFixed(3)), unit: "ms", target: "< 5 ms", pass: median(first) < 5 });
  await Promise.all(channels.map((sandbox) => sandbox.close()));
  return rows;
}
