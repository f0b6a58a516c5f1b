import { afterAll, describe, expect, it } from "vitest";
import { createCodemodeSandbox, type CodemodeOutcome, type CodemodeToolCall } from "../src/codemode/index.js";

// Issue 16: the growing hostile corpus for values crossing the sandbox boundary. Each case proves that the
// process survives (an uncaught host exception fails the test file), that the program's promise settles with
// the case's outcome, and that the next program on the same worker works.

const MiB = 1024 * 1024;
const sandbox = createCodemodeSandbox({ limits: { timeoutMs: 1500, memoryLimitBytes: 64 * MiB }, poolSize: 1 });
afterAll(() => sandbox.close());

const received: { name: string; input: unknown }[] = [];
/** `echo` returns its input; `deep` returns `{ depth }` levels of arrays; `text` returns `{ text }` as given. */
const callTool: CodemodeToolCall = async (name, input) => {
  received.push({ name, input });
  if (name === "deep") {
    let value: unknown = "\u0001";
    for (let i = 0; i < (input as { depth: number }).depth; i++) value = [value];
    return value;
  }
  return input;
};
const tools = [{ name: "echo" }, { name: "deep" }];
const run = (js: string): Promise<CodemodeOutcome> => sandbox.run({ js, tools, callTool });

async function expectNextProgramWorks(): Promise<void> {
  expect(await run("const r = await tools.echo({ n: 20 }); return r.n + 1")).toEqual({ ok: true, value: 21, console: [] });
}

/** Guest source building `depth` levels of `kind` around a leaf that needs a `\u` escape (or other flavour). */
function nested(depth: number, kind: "array" | "object", leaf: string): string {
  const wrap = kind === "array" ? "v = [v];" : 'v = { k: v, ["__proto__"]: 1 };';
  return `let v = ${leaf}; for (let i = 0; i < ${depth}; i++) { ${wrap} }`;
}

const LEAVES: Record<string, string> = {
  escape: '"\\u0001"',
  unicode: '"é中😀"',
  proto: 'JSON.parse(\'{"__proto__": {"polluted": 1}}\')',
  payload: '({ type: "image", mimeType: "image/png", data: "AAAA" })',
  long: '"\\u0001" + "x".repeat(5000)',
};

const DEPTHS = [100, 997, 1001, 6000, 8000, 20_000, 100_000];
/** QuickJS's own JSON.stringify checks for cycles in time quadratic in the depth: very deep values cost the
 * guest its deadline, so those depths run with one leaf only. */
const QUADRATIC = 20_000;

describe("issue 16 hostile corpus: nesting crossing the boundary", () => {
  for (const depth of DEPTHS) {
    for (const kind of ["array", "object"] as const) {
      for (const [flavour, leaf] of Object.entries(LEAVES)) {
        if (depth >= QUADRATIC && flavour !== "escape") continue;
        it(`a ${depth}-deep ${kind} (${flavour}) as return value and as tool input`, async () => {
          const returned = await run(`${nested(depth, kind, leaf)} return v;`);
          const passed = await run(`${nested(depth, kind, leaf)} await tools.echo({ v }); return "sent";`);
          // Within the bound the value arrives; past it, the program fails with the bound (QuickJS itself may
          // overflow its own stack first, or spend its deadline, while encoding very deep values).
          if (depth < 1000) {
            expect(returned.ok).toBe(true);
            expect(passed).toEqual({ ok: true, value: "sent", console: [] });
          } else {
            expect(returned.ok ? "ok" : returned.error).toMatch(/^codemode: (result nests deeper than 1000 levels|stack overflow|timed out after 1500 ms)$/);
            expect(passed.ok ? "ok" : passed.error).toMatch(/^codemode: (tool input nests deeper than 1000 levels|stack overflow|timed out after 1500 ms)$/);
          }
          await expectNextProgramWorks();
        });
      }
    }
  }

  for (const depth of [999, 1001, 6000, 100_000]) {
    it(`a ${depth}-deep tool output reaches the program as a value or as that call's error`, async () => {
      const outcome = await run(`try { const v = await tools.deep({ depth: ${depth} }); return Array.isArray(v); } catch (e) { return e.message; }`);
      expect(outcome).toEqual({ ok: true, value: depth <= 999 ? true : 'codemode: Tool "deep" failed: output nests deeper than 1000 levels', console: [] });
      await expectNextProgramWorks();
    });
  }

  it("a returned value walked by __proto__ keys never pollutes a prototype on either side", async () => {
    const outcome = await run(`${nested(500, "object", LEAVES.proto)} const back = await tools.echo({ v }); return [back, ({}).polluted ?? null];`);
    expect(outcome.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (outcome.ok) expect((outcome.value as unknown[])[1]).toBeNull();
  });
});

describe("issue 16 hostile corpus: sizes and encodings crossing the boundary", () => {
  const STRINGS: Record<string, string> = {
    empty: '""',
    "4095 units": '"a".repeat(4095)',
    "4096 units": '"a".repeat(4096)',
    "1 MiB": '"x".repeat(1048576)',
    "1 MiB of escapes": '"\\"\\\\\\n\\u0001".repeat(262144)',
    "astral and CJK": '"中文😀é".repeat(50000)',
    "lone surrogates": '"\\ud800a\\udc00".repeat(3000)',
    "NULs": '"a\\u0000b".repeat(3000)',
    "leading NUL": '"\\u0000" + "y".repeat(5000)',
    "marker-like": '"\\ue0000"',
    "marker-like long": '"\\ue000" + "1".repeat(5000)',
    "marker with NUL": '"\\ue0001\\u0000"',
  };
  for (const [label, source] of Object.entries(STRINGS)) {
    it(`a string (${label}) survives a tool round trip and the return unchanged`, async () => {
      const outcome = await run(`const s = ${source}; const back = await tools.echo({ s, list: [s, { s }] }); return { same: back.s === s && back.list[0] === s && back.list[1].s === s, length: s.length, s };`);
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      const value = outcome.value as { same: boolean; length: number; s: string };
      expect(value.same).toBe(true);
      expect(value.s.length).toBe(value.length);
      const input = received.at(-1)?.input as { s: string; list: [string, { s: string }] };
      expect(input.s).toBe(value.s);
      expect(input.list[1].s).toBe(value.s);
    });
  }

  it("a string the guest forges as a marker comes back as written, never as another string", async () => {
    const outcome = await run('const big = "z".repeat(5000); return [big, "\\ue0000", "\\ue0001", big];');
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.value).toEqual(["z".repeat(5000), "\ue0000", "\ue0001", "z".repeat(5000)]);
  });

  it("a wide value (100,000 elements) crosses both ways", async () => {
    const outcome = await run("const v = Array.from({ length: 100000 }, (_, i) => ({ i })); const back = await tools.echo({ v }); return back.v.length;");
    expect(outcome).toEqual({ ok: true, value: 100_000, console: [] });
  });

  it("a program that repeats one long string 10,000 times pays for every copy against maxResultBytes", async () => {
    const small = createCodemodeSandbox({ limits: { maxResultBytes: 1 * MiB }, poolSize: 1 });
    try {
      const outcome = await small.run({ js: 'const s = "q".repeat(5000); return Array(10000).fill(s);', tools, callTool });
      expect(outcome.ok ? "ok" : outcome.error).toMatch(/^codemode: result exceeds maxResultBytes \(\d+ > 1048576\)$/);
    } finally {
      await small.close();
    }
  });
});

describe("issue 16 low: returning, thrown values and the deadline", () => {
  it("tool calls started by a returned object's toJSON never run and fail the program as pending", async () => {
    received.length = 0;
    const outcome = await run('return { toJSON() { tools.echo({ late: 1 }); tools.echo({ late: 2 }); return 1; } };');
    expect(outcome.ok ? "ok" : outcome.error).toBe("codemode: Program returned while 2 tool call(s) were still pending; await every tools.* call");
    await new Promise((resolve) => setImmediate(resolve));
    expect(received.filter((call) => (call.input as { late?: number }).late !== undefined)).toEqual([]);
    await expectNextProgramWorks();
  });

  it("throw null and throw undefined are thrown values, not memory errors", async () => {
    expect(await run("throw null")).toMatchObject({ ok: false, error: "codemode: Error: null" });
    expect(await run("throw undefined")).toMatchObject({ ok: false, error: "codemode: Error: undefined" });
    expect(await run("await tools.echo({}); throw null")).toMatchObject({ ok: false, error: "codemode: Error: null" });
  });

  it("an allocation bomb of small objects, which QuickJS reports by throwing null, is a memory error", async () => {
    expect(await run("const a = []; while (true) a.push({});")).toMatchObject({ ok: false, error: `codemode: memory limit exceeded (${64 * MiB} bytes)` });
    await expectNextProgramWorks();
  });

  it("a deadline that passes while the thrown value is described reports the timeout", async () => {
    const outcome = await run('throw { name: "Slow", get message() { while (true) {} } };');
    expect(outcome.ok ? "ok" : outcome.error).toBe("codemode: timed out after 1500 ms");
    await expectNextProgramWorks();
  });

  it("a microtask spin left behind by a returned program reports the timeout, not the value", async () => {
    const outcome = await run("(function spin() { Promise.resolve().then(spin); })(); return 1;");
    expect(outcome.ok ? "ok" : outcome.error).toBe("codemode: timed out after 1500 ms");
    await expectNextProgramWorks();
  });

  it("a thrown value whose description throws is still an error result", async () => {
    const outcome = await run('throw { get name() { throw new Error("no"); }, message: "m" };');
    expect(outcome.ok ? "ok" : outcome.error).toBe("codemode: Error: a value that cannot be shown");
    await expectNextProgramWorks();
  });
});
