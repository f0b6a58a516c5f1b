import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { stageFile } from "./staged-file.js";

const run = promisify(execFile);
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("staged artifact files (RS-26, RS-30)", () => {
  it("RS-30 a string is stored as its exact UTF-8 even when a surrogate pair straddles a chunk boundary", async () => {
    dir = await mkdtemp(join(tmpdir(), "ishiki-stage-"));
    // 2^20 - 1 ASCII units put the emoji's high surrogate last in the first chunk.
    const text = `${"a".repeat((1 << 20) - 1)}😀${"中".repeat(1000)}\n`;
    const staged = await stageFile(dir, text);
    await staged.commit(join(dir, "out.blob"));
    const expected = Buffer.from(text, "utf8");
    const stored = await readFile(join(dir, "out.blob"));
    expect(stored.equals(expected)).toBe(true);
    expect(staged.byteLength).toBe(expected.length);
    expect(staged.hash).toBe(createHash("sha256").update(expected).digest("hex"));
  });

  it("RS-30 a string in pieces is stored as the UTF-8 of their concatenation; a failing producer leaves nothing", async () => {
    dir = await mkdtemp(join(tmpdir(), "ishiki-stage-"));
    const pieces = ["", "中😀", ...Array.from({ length: 5000 }, (_, i) => `line ${i} ${"é".repeat(i % 300)}\n`), "b".repeat(3 << 20), "tail"];
    const staged = await stageFile(dir, pieces.values());
    await staged.commit(join(dir, "out.blob"));
    const expected = Buffer.from(pieces.join(""), "utf8");
    expect((await readFile(join(dir, "out.blob"))).equals(expected)).toBe(true);
    expect(staged.hash).toBe(createHash("sha256").update(expected).digest("hex"));

    const failing = (function* () {
      yield "x".repeat(4 << 20);
      throw new TypeError("producer failed");
    })();
    await expect(stageFile(dir, failing)).rejects.toThrow("producer failed");
    expect(await readdir(dir)).toEqual(["out.blob"]);
  });

  it("RS-26 discarding leaves no temp file behind", async () => {
    dir = await mkdtemp(join(tmpdir(), "ishiki-stage-"));
    const staged = await stageFile(dir, new Uint8Array([1, 2, 3]));
    expect((await readdir(dir)).length).toBe(1);
    await staged.discard();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("the staging worker and the process (RS-26)", () => {
  it("RS-26 a process that stages text waits for the worker while it works and exits on its own once it is done", async () => {
    dir = await mkdtemp(join(tmpdir(), "ishiki-stage-"));
    // The staging code bundled as a plain script: nothing else keeps that process alive, so an unref'd worker would
    // let it exit mid-job (code 13), and a ref'd idle worker would keep it running (the timeout).
    const entry = join(dir, "entry.ts");
    await writeFile(
      entry,
      `import { stageFile } from ${JSON.stringify(fileURLToPath(new URL("./staged-file.ts", import.meta.url)))};\n` +
        `const staged = await stageFile(process.argv[2], ["x".repeat(5 << 20), "tail"]);\n` +
        `process.stdout.write(staged.hash);\n`,
    );
    const script = join(dir, "entry.mjs");
    await build({ entryPoints: [entry], outfile: script, bundle: true, platform: "node", format: "esm", logLevel: "silent" });
    const { stdout } = await run(process.execPath, [script, dir], { timeout: 20_000 });
    expect(stdout).toBe(createHash("sha256").update(`${"x".repeat(5 << 20)}tail`).digest("hex"));
  });
});
