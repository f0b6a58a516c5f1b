import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, describe, expect, it } from "vitest";
import { createCodemodeSandbox, type CodemodeOutcome, type CodemodeToolCall } from "../src/codemode/index.js";

const MiB = 1024 * 1024;
// A small heap keeps the allocation bombs quick; the defaults are exercised by the benchmark.
const sandbox = createCodemodeSandbox({ limits: { timeoutMs: 1500, memoryLimitBytes: 64 * MiB }, poolSize: 1 });
afterAll(() => sandbox.close());

const calls: { name: string; input: unknown; signal: AbortSignal }[] = [];
const tools = [{ name: "echo" }, { name: "hang" }];
const callTool: CodemodeToolCall = async (name, input, signal) => {
  calls.push({ name, input, signal });
  if (name === "hang") return new Promise(() => {});
  return input;
};

const run = (js: string): Promise<CodemodeOutcome> => sandbox.run({ js, tools, callTool });

/** After every hostile program the same sandbox (and process) still runs a normal program correctly. */
async function expectContained(js: string, error: string | RegExp): Promise<void> {
  const outcome = await run(js);
  if (outcome.ok) throw new Error(`expected failure, got ${JSON.stringify(outcome.value)}`);
  if (typeof error === "string") expect(outcome.error).toBe(error);
  else expect(outcome.error).toMatch(error);
  const normal = await run("const r = await tools.echo({ n: 20 }); return r.n + 1");
  expect(normal).toEqual({ ok: true, value: 21, console: [] });
}

describe("CT-19 hostile programs", () => {
  it("CT-19 CT-13 while (true) {} stops at the deadline while the host event loop keeps running", async () => {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 20);
    const started = Date.now();
    try {
      await expectContained("while (true) {}", "codemode: timed out after 1500 ms");
    } finally {
      clearInterval(timer);
      histogram.disable();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    // The guest spins on its own thread: the host's timers keep firing throughout.
    expect(histogram.max / 1e6).toBeLessThan(1000);
    expect(ticks).toBeGreaterThan(20);
  });

  it("CT-13 native work that starves the interrupt handler is ended by the backstop, which replaces the worker", async () => {
    const short = createCodemodeSandbox({ limits: { timeoutMs: 100 }, poolSize: 1 });
    try {
      await short.run({ js: "return 1", tools, callTool });
      const started = Date.now();
      // One native sort of 200 million bytes never reaches an interrupt check.
      const outcome = await short.run({ js: "new Uint8Array(200000000).sort(); return 1", tools, callTool });
      expect(outcome.ok ? "ok" : outcome.error).toBe("codemode: timed out after 100 ms");
      expect(Date.now() - started).toBeGreaterThanOrEqual(1100);
      expect(short.stats().replaced).toBe(1);
      expect(await short.run({ js: "return 'replaced'", tools, callTool })).toEqual({ ok: true, value: "replaced", console: [] });
    } finally {
      await short.close();
    }
  });

  it("CT-19 await on a promise nothing resolves fails at once", async () => {
    const started = Date.now();
    await expectContained(
      "await new Promise(() => {})",
      "codemode: program is waiting on a promise that nothing can settle; only tools.* calls resolve asynchronously here",
    );
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("CT-19 a host call that never returns ends at the deadline with its signal aborted", async () => {
    calls.length = 0;
    await expectContained("await tools.hang({})", "codemode: timed out after 1500 ms");
    expect(calls[0].name).toBe("hang");
    expect(calls[0].signal.aborted).toBe(true);
  });

  it("CT-19 unbounded recursion", async () => {
    await expectContained("const f = (n) => f(n + 1) + 1; return f(0)", "codemode: stack overflow");
  });

  it("CT-19 allocation past the memory limit is contained and the worker stays usable or is replaced", async () => {
    // Filling 64 MiB with small objects takes QuickJS's collector a while on a loaded machine: a long deadline
    // makes sure the memory limit, not the clock, stops these programs.
    const bombs = createCodemodeSandbox({ limits: { timeoutMs: 20_000, memoryLimitBytes: 64 * MiB }, poolSize: 1 });
    const contained = async (js: string) => {
      const outcome = await bombs.run({ js, tools, callTool });
      expect(outcome.ok ? "ok" : outcome.error).toBe("codemode: memory limit exceeded (67108864 bytes)");
      expect(await bombs.run({ js: "return (await tools.echo({ n: 1 })).n", tools, callTool })).toEqual({ ok: true, value: 1, console: [] });
    };
    try {
      await contained("const keep = []; while (true) keep.push({ a: keep.length, b: 'x' + keep.length })");
      await contained("await tools.echo({}); const keep = []; while (true) keep.push('x'.repeat(1 << 20) + keep.length)");
      await contained("const keep = []; while (true) keep.push(new Uint8Array(1 << 20))");
    } finally {
      await bombs.close();
    }
  }, 120_000);

  it("CT-19 a 33 MiB return", async () => {
    const large = createCodemodeSandbox({ poolSize: 1 });
    try {
      const outcome = await large.run({ js: "return 'x'.repeat(33 * 1024 * 1024)", tools: [], callTool });
      expect(outcome.ok ? "ok" : outcome.error).toBe(`codemode: result exceeds maxResultBytes (${33 * MiB + 2} > ${32 * MiB})`);
      expect(await large.run({ js: "return 'fine'", tools: [], callTool })).toEqual({ ok: true, value: "fine", console: [] });
    } finally {
      await large.close();
    }
  });

  it("CT-19 cyclic, function and symbol returns", async () => {
    await expectContained("const a = { b: {} }; a.b.c = a; return a", "codemode: return value is not JSON-serialisable at $.b.c");
    await expectContained("return [1, () => 2]", "codemode: return value is not JSON-serialisable at $[1]");
    await expectContained('return { "odd key": Symbol("s") }', 'codemode: return value is not JSON-serialisable at $["odd key"]');
  });

  it("CT-19 constructor.constructor cannot reach the host", async () => {
    await expectContained(
      'const p = constructor.constructor("return process")(); return p.env',
      "codemode: ReferenceError: 'process' is not defined (line 1)",
    );
    const escape = await run('return [typeof Function("return this")().process, tools.echo.constructor("return typeof require")()]');
    expect(escape).toEqual({ ok: true, value: ["undefined", "undefined"], console: [] });
  });

  it("CT-19 a __proto__ payload to a tool reaches it as plain data", async () => {
    calls.length = 0;
    const outcome = await run(`return await tools.echo(JSON.parse('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}'))`);
    expect(outcome.ok).toBe(true);
    const input = calls[0].input as Record<string, unknown>;
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(input.isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("CT-19 a call after the deadline never reaches the host", async () => {
    calls.length = 0;
    await expectContained(
      "const end = Date.now() + 1700; while (Date.now() < end) {} await tools.echo({ late: true }); return 1",
      "codemode: timed out after 1500 ms",
    );
    expect(calls.filter((call) => (call.input as { late?: boolean }).late)).toEqual([]);
  });

  it("CT-19 10,000 calls stop after maxToolCalls", async () => {
    calls.length = 0;
    await expectContained("for (let i = 0; i < 10000; i++) await tools.echo({ i }); return 1", "codemode: more than 1000 tool calls");
    expect(calls.length).toBeLessThanOrEqual(1001);
  });

  it("CT-19 a console flood is truncated", async () => {
    const outcome = await run("for (let i = 0; i < 20000; i++) console.log('flood ' + i); return 'done'");
    expect(outcome.ok && outcome.value).toBe("done");
    expect(outcome.console.at(-1)).toBe("[console truncated]");
    expect(Buffer.byteLength(outcome.console.join("\n"))).toBeLessThanOrEqual(64 * 1024 + 20);
  });

  it("CT-19 a syntax error", async () => {
    await expectContained("return (1 +;", 'codemode: SyntaxError: Unexpected ";" (line 1, column 12)');
  });

  it("CT-19 TypeScript input", async () => {
    const outcome = await run("enum Color { Red = 'red' } const c: Color = Color.Red; return { c } satisfies { c: string }");
    expect(outcome).toEqual({ ok: true, value: { c: "red" }, console: [] });
  });

  it("CT-19 astral Unicode round trip", async () => {
    calls.length = 0;
    const text = "𝄞 emoji 😀 han 漢字 lone \uD800 end";
    const outcome = await run(`const r = await tools.echo({ text: ${JSON.stringify(text)} }); return [r.text, r.text.length, [...r.text].length]`);
    expect(outcome).toEqual({ ok: true, value: [text, text.length, [...text].length], console: [] });
    expect((calls[0].input as { text: string }).text).toBe(text);
  });
});

describe("CT-14 handle ownership", () => {
  it("CT-14 1,000 consecutive programs leave worker memory stable", async () => {
    const programs = [
      "const r = await tools.echo({ list: Array.from({ length: 100 }, (_, i) => ({ i })) }); return r.list.length",
      "throw new Error('planned')",
      "const a = []; for (let i = 0; i < 1000; i++) a.push({ i, s: 'v' + i }); return a.length",
      "tools.echo({}); return 1",
      "function f() { return f() } f()",
    ];
    const runBatch = async (count: number) => {
      for (let i = 0; i < count; i++) await run(programs[i % programs.length]);
    };
    await runBatch(100);
    const [before] = await sandbox.measureWorkerHeaps();
    const replacedBefore = sandbox.stats().replaced;
    await runBatch(1000);
    const [after] = await sandbox.measureWorkerHeaps();
    expect(sandbox.stats().replaced).toBe(replacedBefore);
    expect(after - before).toBeLessThan(8 * MiB);
    // The QuickJS heap lives in a fixed WebAssembly memory: a leak there would make this allocation fail.
    const heavy = await run("const a = []; for (let i = 0; i < 300000; i++) a.push({ i }); return a.length");
    expect(heavy).toEqual({ ok: true, value: 300000, console: [] });
  }, 120_000);
});
