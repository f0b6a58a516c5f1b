import { monitorEventLoopDelay } from "node:perf_hooks";
import vm from "node:vm";
import { createCodemodeSandbox, type CodemodeToolCall } from "../../src/codemode/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => Number(value.toFixed(3));
const us = (value: number) => Number((value * 1000).toFixed(1));

/** Codemode sandbox figures (spec 12 QA-16) with node:vm reference lines; isolated-vm is not installed here. */
export default async function sandboxBench(): Promise<Row[]> {
  const rows: Row[] = [];
  const echo: CodemodeToolCall = async (_name, input) => input;
  const tools = [{ name: "echo" }, { name: "produce" }, { name: "consume" }];

  const coldStart = performance.now();
  const sandbox = createCodemodeSandbox({ poolSize: 1 });
  await sandbox.run({ js: "return 1", tools, callTool: echo });
  rows.push({ measure: "first program on a new sandbox (worker start + QuickJS load)", value: ms(performance.now() - coldStart), unit: "ms", target: "report" });

  for (let i = 0; i < 200; i++) await sandbox.run({ js: `return ${i}`, tools, callTool: echo });
  const trivial: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const started = performance.now();
    await sandbox.run({ js: "return 1 + 1", tools, callTool: echo });
    trivial.push(performance.now() - started);
  }
  rows.push({ measure: "trivial program, back to back (worker prepares the next runtime meanwhile, median)", value: ms(median(trivial)), unit: "ms", target: "report" });

  // A warm worker has prepared the next fresh runtime while idle; a short pause between programs lets it.
  const warm: number[] = [];
  for (let i = 0; i < 500; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const started = performance.now();
    await sandbox.run({ js: "return 1 + 1", tools, callTool: echo });
    warm.push(performance.now() - started);
  }
  rows.push({ measure: "trivial program, warm worker, fresh runtime (median)", value: ms(median(warm)), unit: "ms", target: "< 1 ms" });

  const unique: number[] = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    await sandbox.run({ js: `return ${i} + 1 // ${Math.random()}`, tools, callTool: echo });
    unique.push(performance.now() - started);
  }
  rows.push({ measure: "trivial program with a new text each time (esbuild transform included, median)", value: ms(median(unique)), unit: "ms", target: "report" });

  // Each gap between two consecutive host invocations is one round trip host -> guest -> host.
  const stamps: number[] = [];
  const stamping: CodemodeToolCall = async (_name, input) => {
    stamps.push(performance.now());
    return input;
  };
  const loopStarted = performance.now();
  await sandbox.run({ js: "for (let i = 0; i < 1000; i++) await tools.echo({ i }); return null", tools, callTool: stamping });
  const loopTotal = performance.now() - loopStarted;
  const gaps = stamps.slice(1).map((stamp, i) => stamp - stamps[i]);
  rows.push({ measure: "one host tool-call round trip (median)", value: us(median(gaps)), unit: "us", target: "< 100 us" });
  rows.push({ measure: "1,000 sequential tool calls in one program", value: ms(loopTotal), unit: "ms", target: "report" });

  const big = "x".repeat(1024 * 1024);
  let received = "";
  const transfer: CodemodeToolCall = async (name, input) => {
    if (name === "produce") return { text: big };
    received = (input as { text: string }).text;
    return { ok: true };
  };
  const transfers: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    await sandbox.run({ js: "const { text } = await tools.produce({}); return await tools.consume({ text })", tools, callTool: transfer });
    transfers.push(performance.now() - started);
  }
  rows.push({ measure: `1 MiB value passed between two tools (median, identical: ${received === big})`, value: ms(median(transfers)), unit: "ms", target: "report" });

  // The first bomb in a worker also pays the kernel's first touch of its WebAssembly memory pages.
  for (const which of ["first", "second"]) {
    const bombStarted = performance.now();
    const bomb = await sandbox.run({ js: "const keep = []; while (true) keep.push('x'.repeat(1 << 20) + keep.length)", tools, callTool: echo });
    const bombTime = performance.now() - bombStarted;
    const after = await sandbox.run({ js: "return 'usable'", tools, callTool: echo });
    rows.push({
      measure: `${which} memory bomb in a worker, 256 MiB limit (${bomb.ok ? "not contained" : bomb.error}; next program ${after.ok ? after.value : "failed"}; workers replaced ${sandbox.stats().replaced})`,
      value: ms(bombTime),
      unit: "ms",
      target: "< 2000 ms",
    });
  }
  await sandbox.close();

  const spinning = createCodemodeSandbox({ poolSize: 1, limits: { timeoutMs: 5000 } });
  await spinning.run({ js: "return 1", tools, callTool: echo });
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => undefined, 10);
  await spinning.run({ js: "while (true) {}", tools, callTool: echo });
  clearInterval(timer);
  histogram.disable();
  rows.push({ measure: "host event-loop delay while a program spins 5 s in while(true) (max)", value: ms(histogram.max / 1e6), unit: "ms", target: "< 1000 ms" });
  await spinning.close();

  rows.push(...(await nodeVmReference()));
  rows.push({ measure: "isolated-vm reference", value: "not installed", unit: "", target: "report" });
  return rows;
}

/** node:vm as a reference only: it shares the host thread, so `await 0; while (true) {}` would hang the host. */
async function nodeVmReference(): Promise<Row[]> {
  const trivial: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const started = performance.now();
    const context = vm.createContext({});
    await vm.runInContext("(async () => 1 + 1)()", context);
    trivial.push(performance.now() - started);
  }
  const stamps: number[] = [];
  const context = vm.createContext({
    call: async (input: unknown) => {
      stamps.push(performance.now());
      return JSON.parse(JSON.stringify(input));
    },
  });
  await vm.runInContext("(async () => { for (let i = 0; i < 1000; i++) await call({ i }); })()", context);
  const gaps = stamps.slice(1).map((stamp, i) => stamp - stamps[i]);
  return [
    { measure: "node:vm reference: trivial program in a new context (median)", value: ms(median(trivial.slice(100))), unit: "ms", target: "report" },
    { measure: "node:vm reference: one tool-call round trip with JSON copies (median)", value: us(median(gaps)), unit: "us", target: "report" },
  ];
}
