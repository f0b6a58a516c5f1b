import { afterEach, describe, expect, it } from "vitest";
import { configureCodemodeWorkers, createCodemodeSandbox, type CodemodeSandbox, type CodemodeToolCall } from "../src/codemode/index.js";

const MiB = 1024 * 1024;
const tools = [{ name: "wait" }];
/** `wait` resolves when the test says so, so programs can be held running at once. */
const gates: (() => void)[] = [];
const callTool: CodemodeToolCall = (_name, input) => new Promise((resolve) => gates.push(() => resolve(input)));
const open: CodemodeSandbox[] = [];
let restore: (() => void) | undefined;

afterEach(async () => {
  restore?.();
  restore = undefined;
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

function sandbox(limits: { memoryLimitBytes?: number } = {}): CodemodeSandbox {
  const created = createCodemodeSandbox({ limits });
  open.push(created);
  return created;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe("issue 19: one codemode worker pool per process", () => {
  it("sandboxes of every runtime and profile share the configured number of workers, and queue beyond it", async () => {
    restore = configureCodemodeWorkers(2);
    const sandboxes = [sandbox(), sandbox(), sandbox({ memoryLimitBytes: 32 * MiB })];
    const runs = sandboxes.flatMap((each) => [1, 2].map((n) => each.run({ js: `return (await tools.wait({ n: ${n} })).n`, tools, callTool })));
    await until(() => gates.length === 2);
    expect(sandboxes[0].stats()).toMatchObject({ workers: 2, busy: 2, size: 2 });
    // The others wait for a worker; releasing the gates one by one lets each queued program through.
    let done = false;
    void Promise.all(runs).then(() => (done = true));
    while (!done) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
      expect(sandboxes[1].stats().workers).toBeLessThanOrEqual(2);
    }
    expect((await Promise.all(runs)).map((outcome) => (outcome.ok ? outcome.value : outcome.error))).toEqual([1, 2, 1, 2, 1, 2]);
  });

  it("a different memory limit takes a worker of its own size without exceeding the pool", async () => {
    restore = configureCodemodeWorkers(1);
    const small = sandbox({ memoryLimitBytes: 16 * MiB });
    const large = sandbox();
    for (let i = 0; i < 3; i++) {
      expect(await small.run({ js: "return 'small'", tools, callTool })).toMatchObject({ ok: true, value: "small" });
      expect(await large.run({ js: "return 'large'", tools, callTool })).toMatchObject({ ok: true, value: "large" });
      expect(large.stats().workers).toBe(1);
    }
  });

  it("the pool's threads end with the last sandbox, and start again for the next", async () => {
    const first = sandbox();
    const second = sandbox();
    await first.run({ js: "return 1", tools, callTool });
    await first.close();
    expect(second.stats().workers).toBe(1);
    await second.close();
    open.length = 0;
    const third = sandbox();
    expect(third.stats().workers).toBe(0);
    expect(await third.run({ js: "return 3", tools, callTool })).toMatchObject({ ok: true, value: 3 });
    await expect(first.run({ js: "return 1", tools, callTool })).rejects.toThrow("codemode: sandbox is closed");
  });

  it("a worker whose program ran out of memory is replaced, so its memory is given back", async () => {
    const bombs = createCodemodeSandbox({ limits: { memoryLimitBytes: 32 * MiB }, poolSize: 1 });
    try {
      for (let i = 1; i <= 2; i++) {
        const outcome = await bombs.run({ js: "const a = []; while (true) a.push('x'.repeat(100000) + a.length);", tools, callTool });
        expect(outcome).toMatchObject({ ok: false, error: `codemode: memory limit exceeded (${32 * MiB} bytes)` });
        expect(bombs.stats()).toMatchObject({ workers: 1, replaced: i });
      }
      expect(await bombs.run({ js: "return 'fresh'", tools, callTool })).toMatchObject({ ok: true, value: "fresh" });
    } finally {
      await bombs.close();
    }
  });
});
