import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stageFile } from "./staged-file.js";

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
