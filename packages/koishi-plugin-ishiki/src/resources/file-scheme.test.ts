import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileEntry } from "./file-entry.js";
import { FileScheme } from "./file-scheme.js";
import type { ResourceFileSystem } from "./file-system.js";
import type { FileUrl } from "./file-url.js";
import type { ResourcePayload, TextPayload } from "./payload.js";
import { ResourceError, type ResourceErrorCode } from "./resource-error.js";
import { parseFileUrl } from "./url-grammar.js";

/** A FileScheme over a host directory, or over a given file system with virtual paths. */
class DiskScheme extends FileScheme {
  public readonly scheme = "disk";
  public constructor(
    private readonly root: string,
    private readonly filesystem?: ResourceFileSystem,
    private readonly mediaType?: string,
  ) {
    super();
  }
  protected open(url: FileUrl): FileEntry {
    const path = this.filesystem ? posix.join(this.root, ...url.segments) : join(this.root, ...url.segments);
    return { path, filesystem: this.filesystem, mediaType: this.mediaType, metadata: { owner: "test" } };
  }
}

/** An in-memory file system that counts how it is used. */
function memoryFileSystem(files: Record<string, string | Uint8Array>, optional = true) {
  const calls: string[] = [];
  const bytes = (path: string) => {
    const value = files[path];
    if (value === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
    return typeof value === "string" ? new TextEncoder().encode(value) : value;
  };
  const isDir = (path: string) => Object.keys(files).some((p) => p.startsWith(`${path === "/" ? "" : path}/`));
  const fs: ResourceFileSystem = {
    async readFileBuffer(path) {
      calls.push(`readFileBuffer ${path}`);
      return bytes(path);
    },
    async stat(path) {
      calls.push(`stat ${path}`);
      if (isDir(path)) return { isFile: false, isDirectory: true, size: 0 };
      return { isFile: true, isDirectory: false, size: bytes(path).length };
    },
    async readdir(path) {
      calls.push(`readdir ${path}`);
      const prefix = `${path === "/" ? "" : path}/`;
      return [...new Set(Object.keys(files).filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length).split("/")[0]))];
    },
  };
  if (optional) {
    fs.readText = async function* (path) {
      calls.push(`readText ${path}`);
      const text = new TextDecoder().decode(bytes(path));
      for (let i = 0; i < text.length; i += 7) yield text.slice(i, i + 7);
    };
    fs.readFilePrefix = async (path, max) => {
      calls.push(`readFilePrefix ${path}`);
      return bytes(path).subarray(0, max);
    };
  }
  return { fs, calls };
}

async function failure(promise: Promise<unknown> | (() => unknown)): Promise<ResourceError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(ResourceError);
    return error as ResourceError;
  }
  throw new Error("expected a ResourceError");
}

async function expectCode(promise: Promise<unknown> | (() => unknown), code: ResourceErrorCode, message?: string | RegExp) {
  const error = await failure(promise);
  expect(error.code).toBe(code);
  if (message !== undefined) expect(error.message).toMatch(message);
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

let dir: string;
let disk: DiskScheme;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ishiki-filescheme-"));
  await writeFile(join(dir, "ten.txt"), lines(10));
  await writeFile(join(dir, "a:b.txt"), "colon\n");
  await writeFile(join(dir, "astral.txt"), "😀\n中文\nend");
  await mkdir(join(dir, "sub", "inner"), { recursive: true });
  await writeFile(join(dir, "sub", "z.txt"), "z");
  await writeFile(join(dir, "sub", "a.txt"), "a");
  await writeFile(join(dir, "nul.bin"), Buffer.from([0x61, 0x00, 0x62]));
  await writeFile(join(dir, "bad-utf8.bin"), Buffer.from([0x61, 0xff, 0xfe, 0x62]));
  await writeFile(join(dir, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  disk = new DiskScheme(dir);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("URL grammar", () => {
  it("RS-5 authority ends at the first / ? # or :, segments are percent-decoded", () => {
    expect(parseFileUrl("disk://host/a%20b/c.txt")).toMatchObject({ scheme: "disk", authority: "host", path: "/a%20b/c.txt", segments: ["a b", "c.txt"] });
    expect(parseFileUrl("DISK://h:3")).toMatchObject({ scheme: "disk", authority: "h", selection: { start: 3 } });
    expect(parseFileUrl("disk://h?view=meta")).toMatchObject({ authority: "h", view: "meta" });
    expect(parseFileUrl("disk://h#offset=4")).toMatchObject({ authority: "h", offset: { offset: 4 } });
  });

  it("RS-5 . and .. segments (also percent-encoded), NUL and backslash are invalid_resource_uri", async () => {
    for (const url of ["disk:///a/../b", "disk:///a/./b", "disk:///a/%2e%2e/b", "disk:///a/%2E%2E", "disk:///a%00b", "disk:///a\\b", "disk:///a%5Cb", "disk://../x"]) {
      await expectCode(() => parseFileUrl(url), "invalid_resource_uri");
    }
  });

  it("RS-8 literal colons in paths are written %3A; the first : starts the selector chain", async () => {
    const payload = (await disk.resolve("disk:///a%3Ab.txt")) as TextPayload;
    expect(payload.text).toBe("colon\n");
    await expectCode(disk.resolve("disk:///a:b.txt"), "invalid_resource_uri", /disk:\/\/\/a:b\.txt: not a line selector/);
  });

  it("RS-9 line selectors :A-B, :A+N, :A and composed chains", () => {
    expect(parseFileUrl("disk:///f:3-5").selection).toEqual({ start: 3, end: 5 });
    expect(parseFileUrl("disk:///f:3+2").selection).toEqual({ start: 3, end: 4 });
    expect(parseFileUrl("disk:///f:7").selection).toEqual({ start: 7 });
    expect(parseFileUrl("disk:///f:100-200:5+3").selection).toEqual({ start: 104, end: 106 });
    expect(parseFileUrl("disk:///f:100:5").selection).toEqual({ start: 104 });
    expect(parseFileUrl("disk:///f:10-12:2-9").selection).toEqual({ start: 11, end: 12 });
  });

  it("RS-10 bad selectors are invalid_resource_uri naming the chunk", async () => {
    const cases: Array<[string, RegExp]> = [
      ["disk:///f:", /disk:\/\/\/f:: empty line selector/],
      ["disk:///f:1::2", /disk:\/\/\/f:: empty line selector/],
      ["disk:///f:abc", /disk:\/\/\/f:abc: not a line selector/],
      ["disk:///f:0", /disk:\/\/\/f:0: line numbers start at 1; use :1-20/],
      ["disk:///f:-3", /disk:\/\/\/f:-3: line numbers cannot be negative/],
      ["disk:///f:4+0", /disk:\/\/\/f:4\+0: a line count must be at least 1/],
      ["disk:///f:9-3", /disk:\/\/\/f:9-3: the range ends before it starts/],
      ["disk:///f:9007199254740993", /line number is above 9007199254740991/],
      ["disk:///f:raw", /disk:\/\/\/f:raw: the :raw selector was removed/],
      ["disk:///f:1-3:5", /disk:\/\/\/f:5: line 5 is beyond the end \(3 lines\)/],
    ];
    for (const [url, message] of cases) await expectCode(() => parseFileUrl(url), "invalid_resource_uri", message);
    await expectCode(disk.resolve("disk:///ten.txt:11"), "invalid_resource_uri", "disk:///ten.txt: line 11 is beyond the end (10 lines)");
  });

  it("RS-11 #offset=N and #offset=N&end=L; other fragments are invalid", async () => {
    expect(parseFileUrl("disk:///f#offset=12&end=3").offset).toEqual({ offset: 12, end: 3 });
    for (const url of ["disk:///f#top", "disk:///f#offset=-1", "disk:///f#offset=1&end=0", "disk:///f#offset=x", "disk:///f#end=3"]) {
      await expectCode(() => parseFileUrl(url), "invalid_resource_uri");
    }
  });

  it("RS-12 ?view=<name> is the only query key; unknown views are unsupported_view", async () => {
    await expectCode(disk.resolve("disk:///ten.txt?view=original"), "unsupported_view", /has no view "original"; supported: meta/);
    await expectCode(disk.resolve("disk:///ten.txt?mode=x"), "invalid_resource_uri", /only \?view=<name>/);
    await expectCode(disk.resolve("disk:///ten.txt?view=meta&x=1"), "invalid_resource_uri");
  });
});

describe("FileScheme reads", () => {
  it("RS-9 RS-19 RS-20 line selections carry a plain-data FileSource", async () => {
    const payload = (await disk.resolve("disk:///ten.txt:3-4")) as TextPayload;
    expect(payload).toMatchObject({ type: "text", url: "disk:///ten.txt:3-4", text: "line 3\nline 4\n", size: 14, filename: "ten.txt" });
    expect(payload.source).toEqual({ kind: "file", url: "disk:///ten.txt", range: { start: 3, end: 4 }, offset: 14, totalLines: 10, totalChars: lines(10).length });
    expect(JSON.parse(JSON.stringify(payload.source))).toEqual(payload.source);
    expect(((await disk.resolve("disk:///ten.txt:9+5")) as TextPayload).text).toBe("line 9\nline 10\n");
    expect(((await disk.resolve("disk:///ten.txt:10")) as TextPayload).text).toBe("line 10\n");
    expect(((await disk.resolve("disk:///ten.txt:2-6:2+2")) as TextPayload).text).toBe("line 3\nline 4\n");
  });

  it("RS-11 #offset continues losslessly, also across astral characters and to line L", async () => {
    const full = (await disk.resolve("disk:///astral.txt")) as TextPayload;
    expect(full.source).toEqual({ kind: "file", url: "disk:///astral.txt", totalLines: 3, totalChars: full.text.length });
    for (let n = 0; n <= full.text.length; n++) {
      const rest = (await disk.resolve(`disk:///astral.txt#offset=${n}`)) as TextPayload;
      expect(full.text.slice(0, n) + rest.text).toBe(full.text);
    }
    const ranged = (await disk.resolve("disk:///ten.txt#offset=10&end=3")) as TextPayload;
    expect(ranged.text).toBe(lines(3).slice(10));
    expect(ranged.source).toMatchObject({ range: { start: 2, end: 3 }, offset: 10 });
    await expectCode(disk.resolve(`disk:///astral.txt#offset=${full.text.length + 1}`), "invalid_resource_uri", /beyond the end/);
    await expectCode(disk.resolve("disk:///ten.txt#offset=60&end=2"), "invalid_resource_uri", /past the end of line 2/);
  });

  it("RS-12 RS-19 ?view=meta shows type, size, filename and metadata without loading bytes", async () => {
    const { fs, calls } = memoryFileSystem({ "/docs/a.txt": "hello" });
    const scheme = new DiskScheme("/docs", fs, "text/markdown");
    const meta = (await scheme.resolve("disk:///a.txt?view=meta")) as TextPayload;
    expect(meta.text).toBe(
      'url: disk:///a.txt?view=meta\nmediaType: text/markdown\nsize: 5 bytes\nfilename: a.txt\nmetadata: {"owner":"test"}\nmetadata only; no bytes were loaded',
    );
    expect(calls).toEqual(["stat /docs/a.txt"]);
  });

  it("RS-18 every read goes through the given file system; optional methods change nothing", async () => {
    const files = { "/v/notes.txt": lines(50), "/v/dir/x.txt": "x", "/v/pic": new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]) };
    const withOptional = memoryFileSystem(files);
    const without = memoryFileSystem(files, false);
    for (const url of ["disk:///notes.txt", "disk:///notes.txt:7-9", "disk:///notes.txt#offset=33&end=20", "disk:///", "disk:///pic"]) {
      const a = await new DiskScheme("/v", withOptional.fs).resolve(url);
      const b = await new DiskScheme("/v", without.fs).resolve(url);
      expect(a).toEqual(b);
    }
    expect(withOptional.calls.some((c) => c.startsWith("readText"))).toBe(true);
    expect(without.calls.some((c) => c.startsWith("readFileBuffer"))).toBe(true);
    await expectCode(new DiskScheme("/v", without.fs).resolve("disk:///missing.txt"), "resource_not_found");
  });

  it("RS-18 bytes in the entry short-circuit file access", async () => {
    class Inline extends FileScheme {
      public readonly scheme = "inline";
      protected open(): FileEntry {
        return { path: "/nowhere/inline.txt", bytes: new TextEncoder().encode("a\nb\nc\n"), immutable: true };
      }
    }
    expect(((await new Inline().resolve("inline://x:2+1")) as TextPayload).text).toBe("b\n");
  });

  it("RS-19 directories list sorted entries, directories suffixed /, one per line", async () => {
    const payload = (await disk.resolve("disk:///sub")) as TextPayload;
    expect(payload).toMatchObject({ type: "text", text: "a.txt\ninner/\nz.txt", mediaType: "inode/directory" });
    expect(((await disk.resolve("disk:///sub:2")) as TextPayload).text).toBe("inner/\nz.txt");
  });

  it("RS-19 NUL or invalid UTF-8 in the first 8 KiB gives bytes with a sniffed or generic type", async () => {
    const png = (await disk.resolve("disk:///image.png")) as Extract<ResourcePayload, { type: "file" }>;
    expect(png).toMatchObject({ type: "file", mediaType: "image/png", size: 12, filename: "image.png", immutable: false });
    expect(await disk.resolve("disk:///nul.bin")).toMatchObject({ type: "file", mediaType: "application/octet-stream", size: 3 });
    expect(await disk.resolve("disk:///bad-utf8.bin")).toMatchObject({ type: "file", mediaType: "application/octet-stream" });
    await expectCode(disk.resolve("disk:///image.png:1-2"), "invalid_resource_uri", /binary/);
    const late = Buffer.concat([Buffer.alloc(9000, "a"), Buffer.from([0xff, 0x0a])]);
    await writeFile(join(dir, "late.txt"), late);
    expect(await disk.resolve("disk:///late.txt")).toMatchObject({ type: "text" });
  });

  it("RS-19 a declared concrete type decides text or bytes", async () => {
    const asText = new DiskScheme(dir, undefined, "text/plain");
    expect(await asText.resolve("disk:///ten.txt:1")).toMatchObject({ type: "text", mediaType: "text/plain" });
    const asImage = new DiskScheme(dir, undefined, "image/gif");
    expect(await asImage.resolve("disk:///ten.txt")).toMatchObject({ type: "file", mediaType: "image/gif" });
  });

  it("RS-21 full reads above 32 MiB are resource_too_large with a selector hint; ranges stream", async () => {
    const big = join(dir, "big.txt");
    await writeFile(big, Buffer.alloc(33 * 1024 * 1024, "abcdefghi\n"));
    await expectCode(disk.resolve("disk:///big.txt"), "resource_too_large", /above the 32 MiB read limit; use a line selector such as :1-2000/);
    const tail = (await disk.resolve("disk:///big.txt:3460000-3460001")) as TextPayload;
    expect(tail.text).toBe("abcdefghi\nabcdefghi\n");
    expect(tail.source).toMatchObject({ totalLines: Math.ceil((33 * 1024 * 1024) / 10), totalChars: 33 * 1024 * 1024 });
    await expectCode(disk.resolve("disk:///big.txt:1"), "resource_too_large", /select fewer lines/);
    const sparse = join(dir, "zeros.bin");
    await writeFile(sparse, Buffer.alloc(33 * 1024 * 1024));
    await expectCode(disk.resolve("disk:///zeros.bin"), "resource_too_large", /cannot be read whole/);
    await rm(big);
    await rm(sparse);
  });
});
