import { afterAll, describe, expect, it } from "vitest";
import {
  codemodeInputSchema,
  createCodemodeSandbox,
  DEFAULT_CODEMODE_LIMITS,
  resolveCodemodeLimits,
  type CodemodeCallableTool,
  type CodemodeOutcome,
  type CodemodeToolCall,
} from "../src/codemode/index.js";

const sandbox = createCodemodeSandbox({ limits: { timeoutMs: 2000 }, poolSize: 1 });
afterAll(() => sandbox.close());

interface Recorded {
  readonly name: string;
  readonly input: unknown;
  readonly signal: AbortSignal;
}

/** A tool table with real behaviour: echo, a failing tool, a tool that waits for its abort, and a recorder. */
function harness() {
  const calls: Recorded[] = [];
  const tools: CodemodeCallableTool[] = [
    { name: "echo" },
    { name: "fail" },
    { name: "wait_for_abort" },
    { name: "delete_everything", needsApproval: true },
    { name: "read-file" },
  ];
  const callTool: CodemodeToolCall = async (name, input, signal) => {
    calls.push({ name, input, signal });
    if (name === "fail") throw new Error("disk is full");
    if (name === "wait_for_abort") {
      return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    }
    return input;
  };
  return { calls, tools, callTool };
}

async function run(js: string, h = harness()): Promise<CodemodeOutcome> {
  return sandbox.run({ js, tools: h.tools, callTool: h.callTool });
}

function expectOk(outcome: CodemodeOutcome): unknown {
  if (!outcome.ok) throw new Error(`expected success, got: ${outcome.error}`);
  return outcome.value;
}

function expectError(outcome: CodemodeOutcome): string {
  if (outcome.ok) throw new Error(`expected failure, got: ${JSON.stringify(outcome.value)}`);
  return outcome.error;
}

describe("codemode surface", () => {
  it("CT-1 input is { js } of 1 to 100,000 units with no extra keys", () => {
    expect(codemodeInputSchema.safeParse({ js: "return 1" }).success).toBe(true);
    expect(codemodeInputSchema.safeParse({ js: "" }).success).toBe(false);
    expect(codemodeInputSchema.safeParse({ js: "x".repeat(100_001) }).success).toBe(false);
    expect(codemodeInputSchema.safeParse({ js: "x".repeat(100_000) }).success).toBe(true);
    expect(codemodeInputSchema.safeParse({ js: "return 1", extra: true }).success).toBe(false);
  });

  it("CT-1 top-level await and return, tools.<name> and tools[\"<name>\"], parallel Promise.all", async () => {
    const h = harness();
    const value = expectOk(
      await run(
        `const a = await tools.echo({ n: 1 });
         const b = await tools["read-file"]({ n: 2 });
         const [c, d] = await Promise.all([tools.echo({ n: 3 }), tools.echo({ n: 4 })]);
         return [a.n, b.n, c.n, d.n];`,
        h,
      ),
    );
    expect(value).toEqual([1, 2, 3, 4]);
    expect(h.calls.map((call) => call.name)).toEqual(["echo", "read-file", "echo", "echo"]);
  });

  it("CT-1 rejects an empty or oversized program without starting it", async () => {
    expect(expectError(await sandbox.run({ js: "", tools: [], callTool: async () => null }))).toBe(
      "codemode: program must be 1 to 100000 characters long; got 0",
    );
  });

  it("CT-11 TypeScript annotations are stripped by a real transformer", async () => {
    const value = expectOk(
      await run(`interface Point { x: number; y: number }
        const points: Point[] = [{ x: 1, y: 2 }];
        function sum(p: Point): number { return p.x + p.y }
        return points.map(sum) as number[];`),
    );
    expect(value).toEqual([3]);
  });

  it("CT-11 a syntax error gives the model's line and column", async () => {
    expect(expectError(await run("const a = 1;\nconst b = ;\nreturn b"))).toBe(
      'codemode: SyntaxError: Unexpected ";" (line 2, column 11)',
    );
    // Columns count characters, not UTF-8 bytes.
    expect(expectError(await run('const s = "é";\nconst ü = "Ω" @ 1;'))).toBe(
      'codemode: SyntaxError: Expected ";" but found "@" (line 2, column 15)',
    );
  });

  it("CT-11 runtime errors report the model's line after TypeScript was stripped", async () => {
    const js = `interface Wide {
      a: string;
      b: string;
    }
    type T = Wide;
    const value: T | null = null as T | null;
    return (value as any).a;`;
    expect(expectError(await run(js))).toBe("codemode: TypeError: cannot read property 'a' of null (line 7)");
  });
});

describe("codemode execution", () => {
  it("CT-7 CT-17 each program gets a fresh runtime: nothing carries over", async () => {
    expectOk(await run("globalThis.leak = 42; Object.prototype.polluted = true; return null"));
    const value = expectOk(await run("return [typeof globalThis.leak, typeof ({}).polluted]"));
    expect(value).toEqual(["undefined", "undefined"]);
  });

  it("CT-8 inner calls get the parsed input and a signal that aborts when the program ends", async () => {
    const h = harness();
    expectOk(await run("await tools.echo({ a: [1, 'two', null] }); return 1", h));
    expect(h.calls[0].input).toEqual({ a: [1, "two", null] });
    expect(h.calls[0].signal.aborted).toBe(true);
  });

  it("CT-9 tool outputs are normalised JSON: Date, BigInt, bytes, undefined, non-finite", async () => {
    const callTool: CodemodeToolCall = async () => ({
      when: new Date(0),
      big: 12n,
      bytes: new Uint8Array([104, 105]),
      gone: undefined,
      nan: Number.NaN,
    });
    const outcome = await sandbox.run({ js: "return await tools.t({})", tools: [{ name: "t" }], callTool });
    expect(expectOk(outcome)).toEqual({ when: "1970-01-01T00:00:00.000Z", big: "12", bytes: "aGk=", nan: null });
  });

  it("CT-9 a cyclic tool output fails that call with its path", async () => {
    const callTool: CodemodeToolCall = async () => {
      const node: Record<string, unknown> = { list: [] };
      (node.list as unknown[]).push(node);
      return node;
    };
    const outcome = await sandbox.run({ js: "return await tools.t({})", tools: [{ name: "t" }], callTool });
    expect(expectError(outcome)).toBe('codemode: Tool "t" failed: result is not JSON-serialisable: cycle at $.list[0]');
  });

  it("CT-9 __proto__ keys never become prototypes, in either direction", async () => {
    const h = harness();
    const polluted: CodemodeToolCall = async (name, input, signal) =>
      name === "evil" ? JSON.parse('{"__proto__": {"admin": true}, "ok": 1}') : h.callTool(name, input, signal);
    const outcome = await sandbox.run({
      js: `const payload = JSON.parse('{"__proto__": {"admin": true}, "x": 1}');
           await tools.echo(payload);
           const back = await tools.evil({});
           return [Object.keys(back), back.admin === undefined, Object.getPrototypeOf(back) === Object.prototype];`,
      tools: [...h.tools, { name: "evil" }],
      callTool: polluted,
    });
    expect(expectOk(outcome)).toEqual([["ok"], true, true]);
    const received = h.calls[0].input as Record<string, unknown>;
    expect(Object.keys(received)).toEqual(["x"]);
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("CT-10 the guest has only ECMAScript built-ins, tools and console", async () => {
    const value = expectOk(
      await run(`return [typeof fetch, typeof require, typeof process, typeof setTimeout, typeof setInterval,
        typeof crypto, typeof WebAssembly, typeof std, typeof os, typeof Buffer, typeof XMLHttpRequest,
        typeof tools, typeof console.log, typeof JSON, typeof Promise]`),
    );
    expect(value).toEqual([
      ...Array(11).fill("undefined"),
      "object",
      "function",
      "object",
      "function",
    ]);
    expect(expectError(await run('await import("node:fs"); return 1'))).toBe(
      "codemode: ReferenceError: could not load module 'node:fs'",
    );
  });

  it("CT-12 limits have the spec defaults and reject bad values", () => {
    expect(DEFAULT_CODEMODE_LIMITS).toEqual({
      timeoutMs: 30_000,
      memoryLimitBytes: 256 * 1024 * 1024,
      maxToolInputBytes: 32 * 1024 * 1024,
      maxToolOutputBytes: 32 * 1024 * 1024,
      maxResultBytes: 32 * 1024 * 1024,
      maxStackBytes: 1024 * 1024,
      maxConsoleBytes: 64 * 1024,
      maxToolCalls: 1000,
    });
    expect(resolveCodemodeLimits({ timeoutMs: 1 }).timeoutMs).toBe(1);
    expect(() => resolveCodemodeLimits({ timeoutMs: 0 })).toThrow("codemode: timeoutMs must be an integer >= 1; got 0");
    expect(() => resolveCodemodeLimits({ maxToolCalls: 1.5 })).toThrow(/maxToolCalls/);
  });

  it("CT-12 byte limits count base64 data of binary payloads at decoded size", async () => {
    const small = createCodemodeSandbox({ limits: { maxToolOutputBytes: 1000, maxToolInputBytes: 1000 }, poolSize: 1 });
    try {
      // 1,200 base64 characters encode 900 bytes: within 1,000 as a payload, over it as plain text.
      const data = Buffer.alloc(900, 7).toString("base64");
      const callTool: CodemodeToolCall = async (_name, input) => input;
      const tools = [{ name: "t" }];
      const asPayload = `return (await tools.t({ type: "image", mimeType: "image/png", data: "${data}" })).data.length`;
      expect(expectOk(await small.run({ js: asPayload, tools, callTool }))).toBe(1200);
      const asText = `return (await tools.t({ text: "${data}" })).text.length`;
      expect(expectError(await small.run({ js: asText, tools, callTool }))).toBe(
        "codemode: tool input exceeds maxToolInputBytes (1211 > 1000)",
      );
      const bytes: CodemodeToolCall = async () => ({ type: "file", mediaType: "image/png", data: new Uint8Array(900) });
      expect(expectOk(await small.run({ js: "return (await tools.t({})).data.length", tools, callTool: bytes }))).toBe(1200);
    } finally {
      await small.close();
    }
  });

  it("CT-12 CT-18 tool output and result over their limits fail with their texts", async () => {
    const small = createCodemodeSandbox({ limits: { maxToolOutputBytes: 100, maxResultBytes: 50 }, poolSize: 1 });
    try {
      const callTool: CodemodeToolCall = async () => "x".repeat(200);
      const tools = [{ name: "t" }];
      expect(expectError(await small.run({ js: "return await tools.t({})", tools, callTool }))).toBe(
        "codemode: tool output exceeds maxToolOutputBytes (202 > 100)",
      );
      expect(expectError(await small.run({ js: 'return "é".repeat(30)', tools, callTool }))).toBe(
        "codemode: result exceeds maxResultBytes (62 > 50)",
      );
    } finally {
      await small.close();
    }
  });

  it("CT-12 CT-18 the stack limit stops deep recursion", async () => {
    expect(expectError(await run("function down(n) { return down(n + 1) + 1 } return down(0)"))).toBe(
      "codemode: stack overflow",
    );
  });

  it("CT-13 after the deadline in-flight calls are aborted and no new call starts", async () => {
    const fast = createCodemodeSandbox({ limits: { timeoutMs: 300 }, poolSize: 1 });
    try {
      const h = harness();
      const outcome = await fast.run({
        js: "await tools.wait_for_abort({}).catch(() => null); await tools.echo({ late: true }); return 1",
        tools: h.tools,
        callTool: h.callTool,
      });
      expect(expectError(outcome)).toBe("codemode: timed out after 300 ms");
      expect(h.calls.map((call) => call.name)).toEqual(["wait_for_abort"]);
      expect(h.calls[0].signal.aborted).toBe(true);
    } finally {
      await fast.close();
    }
  });

  it("CT-13 the turn's abort stops a spinning program at once and rethrows", async () => {
    const controller = new AbortController();
    const h = harness();
    const started = Date.now();
    const pending = sandbox.run({ js: "while (true) {}", tools: h.tools, callTool: h.callTool, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("turn aborted")), 100);
    await expect(pending).rejects.toThrow("turn aborted");
    expect(Date.now() - started).toBeLessThan(1500);
    expect(expectOk(await run("return 'after abort'"))).toBe("after abort");
  });

  it("CT-7 the pool runs programs on separate workers at once; a queued program can be aborted", async () => {
    const pooled = createCodemodeSandbox({ poolSize: 2, limits: { timeoutMs: 10_000 } });
    try {
      let arrived = 0;
      let open: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const callTool: CodemodeToolCall = async () => {
        arrived += 1;
        await gate;
        return { arrived };
      };
      const program = { js: "return (await tools.meet({})).arrived", tools: [{ name: "meet" }], callTool };
      const first = pooled.run(program);
      const second = pooled.run(program);
      // Both programs are inside a tool call at the same time: they run on two workers.
      await expect.poll(() => arrived).toBe(2);
      expect(pooled.stats()).toEqual({ workers: 2, busy: 2, replaced: 0, size: 2 });
      const controller = new AbortController();
      const queued = expect(pooled.run({ js: "return 'never'", tools: [], callTool, signal: controller.signal })).rejects.toThrow("gave up");
      // Long enough for its compilation to finish, so the abort finds it waiting for a worker.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(pooled.stats().busy).toBe(2);
      controller.abort(new Error("gave up"));
      await queued;
      open();
      expect(await Promise.all([first, second])).toEqual([
        { ok: true, value: 2, console: [] },
        { ok: true, value: 2, console: [] },
      ]);
      expect(pooled.stats()).toEqual({ workers: 2, busy: 0, replaced: 0, size: 2 });
    } finally {
      await pooled.close();
    }
  });

  it("CT-15 returning with calls pending fails and aborts them", async () => {
    const h = harness();
    expect(expectError(await run("tools.wait_for_abort({}); tools.wait_for_abort({}); return 1", h))).toBe(
      "codemode: Program returned while 2 tool call(s) were still pending; await every tools.* call",
    );
    await expect.poll(() => h.calls.length).toBe(2);
    await expect.poll(() => h.calls.every((call) => call.signal.aborted)).toBe(true);
  });

  it("CT-15 tools that need approval are refused without running", async () => {
    const h = harness();
    expect(expectError(await run("await tools.delete_everything({})", h))).toBe(
      'codemode: Tool "delete_everything" requires approval and cannot be called from codemode',
    );
    expect(h.calls).toEqual([]);
    // The refusal is an Error the program can handle.
    expect(expectOk(await run("try { await tools.delete_everything({}) } catch (e) { return e.message }", h))).toBe(
      'codemode: Tool "delete_everything" requires approval and cannot be called from codemode',
    );
  });

  it("CT-16 console lines are captured with their level and appended to errors", async () => {
    const outcome = await run(`console.log("a", 1, { b: [2] }); console.info("i"); console.warn("w");
      console.error(new TypeError("t")); console.debug(5n); return null`);
    expect(outcome).toEqual({
      ok: true,
      value: null,
      console: ['[log] a 1 {"b":[2]}', "[info] i", "[warn] w", "[error] TypeError: t", "[debug] 5"],
    });
    expect(expectError(await run('console.log("before"); throw new Error("after")'))).toBe(
      "codemode: Error: after (line 1)\n\nConsole output:\n[log] before",
    );
  });

  it("CT-16 console output stops at maxConsoleBytes with a marker", async () => {
    const small = createCodemodeSandbox({ limits: { maxConsoleBytes: 100 }, poolSize: 1 });
    try {
      const outcome = await small.run({
        js: 'for (let i = 0; i < 50; i++) console.log("line " + i); return 1',
        tools: [],
        callTool: async () => null,
      });
      expect(outcome.console.at(-1)).toBe("[console truncated]");
      expect(outcome.console.slice(0, -1).join("\n").length).toBeLessThanOrEqual(100);
      expect(outcome.console[0]).toBe("[log] line 0");
    } finally {
      await small.close();
    }
  });

  it("CT-16 a program without a return value displays null", async () => {
    expect(expectOk(await run("const x = 1;"))).toBeNull();
  });

  it("CT-18 thrown values, host tool errors and non-JSON returns have their texts", async () => {
    expect(expectError(await run("\n\nthrow new RangeError('bad range')"))).toBe("codemode: RangeError: bad range (line 3)");
    expect(expectError(await run("await tools.fail({})"))).toBe('codemode: Tool "fail" failed: disk is full');
    expect(expectOk(await run("try { await tools.fail({}) } catch (e) { return e.message }"))).toBe(
      'codemode: Tool "fail" failed: disk is full',
    );
    expect(expectError(await run("return { list: [1, { run() {} }] }"))).toBe(
      "codemode: return value is not JSON-serialisable at $.list[1].run",
    );
    expect(expectError(await run("return tools.echo"))).toBe("codemode: return value is not JSON-serialisable at $");
    expect(expectError(await run("await tools.echo({ f: () => 1 })"))).toBe(
      "codemode: TypeError: tool input is not JSON-serialisable at $.f (line 1)",
    );
  });

  it("CT-29 a name outside the catalog gets the caller's text", async () => {
    const outcome = await sandbox.run({
      js: "await tools.write_file({})",
      tools: [],
      callTool: async () => null,
      describeUnknownTool: (name) => `Tool "${name}" is not in the current catalog; call search to discover it`,
    });
    expect(expectError(outcome)).toBe('Tool "write_file" is not in the current catalog; call search to discover it');
    expect(expectError(await run("await tools.nope({})"))).toBe('codemode: Tool "nope" is not callable from codemode');
  });

  it("CT-20 a value over 1 MiB passes between two tools byte-identical", async () => {
    const big = Array.from({ length: 1.5 * 1024 * 1024 }, (_, i) => String.fromCharCode(32 + ((i * 7919) % 90))).join("")
      + "\u{1F600}é\u4E2D";
    let received: unknown;
    const callTool: CodemodeToolCall = async (name, input) => {
      if (name === "produce") return { text: big };
      received = input;
      return { ok: true };
    };
    const outcome = await sandbox.run({
      js: "const { text } = await tools.produce({}); return await tools.consume({ text })",
      tools: [{ name: "produce" }, { name: "consume" }],
      callTool,
    });
    expect(expectOk(outcome)).toEqual({ ok: true });
    expect((received as { text: string }).text === big).toBe(true);
  });
});
