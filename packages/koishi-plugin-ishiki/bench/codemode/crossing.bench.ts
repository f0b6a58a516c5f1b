import vm from "node:vm";
import { createCodemodeSandbox, type CodemodeToolCall } from "../../src/codemode/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
  pass?: boolean;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => Number(value.toFixed(3));
/** A host boundary that shares no objects: what node:vm needs at least to keep guest and host apart. */
const copy = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * Issue 19: a 1 MiB string passed from one tool to another through a program, QuickJS sandbox against the
 * same program in node:vm with JSON copies at its boundary. Runs alternate, so both see the same machine load.
 * Chinese text is measured too: QuickJS keeps it as UTF-16 and converts it to UTF-8 on every copy.
 */
export default async function crossingBench(): Promise<Row[]> {
  const ascii = await measure("x".repeat(1024 * 1024));
  const cjk = await measure("中文字符".repeat(256 * 1024));
  return [
    { measure: `1 MiB string between two tools, QuickJS sandbox (median, identical: ${ascii.identical})`, value: ms(ascii.quickjs), unit: "ms", target: "report" },
    { measure: "1 MiB string between two tools, node:vm with JSON copies (median)", value: ms(ascii.nodeVm), unit: "ms", target: "report" },
    { measure: "1 MiB crossing, QuickJS sandbox / node:vm", value: Number(ascii.ratio.toFixed(2)), unit: "x", target: "<= 2x", pass: ascii.ratio <= 2 && ascii.identical },
    { measure: `1 Mi CJK characters between two tools, QuickJS sandbox / node:vm (identical: ${cjk.identical})`, value: Number(cjk.ratio.toFixed(2)), unit: "x", target: "report" },
  ];
}

async function measure(big: string) {
  const tools = [{ name: "produce" }, { name: "consume" }];
  let identical = true;
  const transfer: CodemodeToolCall = async (name, input) => {
    if (name === "produce") return { text: big };
    identical &&= (input as { text: string }).text === big;
    return { ok: true };
  };
  const program = "const { text } = await tools.produce({}); return await tools.consume({ text })";
  const sandbox = createCodemodeSandbox({ poolSize: 1 });
  const viaVm = async () => {
    const signal = new AbortController().signal;
    const bridge = (name: string) => async (input: unknown) => copy(await transfer(name, copy(input), signal));
    const context = vm.createContext({ tools: { produce: bridge("produce"), consume: bridge("consume") } });
    return vm.runInContext(`(async () => { ${program} })()`, context) as Promise<unknown>;
  };
  for (let i = 0; i < 5; i++) {
    await sandbox.run({ js: program, tools, callTool: transfer });
    await viaVm();
  }
  const quickjs: number[] = [];
  const nodeVm: number[] = [];
  for (let i = 0; i < 40; i++) {
    let started = performance.now();
    const outcome = await sandbox.run({ js: program, tools, callTool: transfer });
    quickjs.push(performance.now() - started);
    identical &&= outcome.ok;
    started = performance.now();
    await viaVm();
    nodeVm.push(performance.now() - started);
  }
  await sandbox.close();
  return { quickjs: median(quickjs), nodeVm: median(nodeVm), ratio: median(quickjs) / median(nodeVm), identical };
}
