import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, realpath, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, exists, failure, invokeWorkspace, startKernel, type Invoked, type Kernel } from "./support.js";
import type { BashResult } from "../src/index.js";
import { ByteQuota } from "../src/fs/byte-quota.js";
import { HostFs } from "../src/fs/host-fs.js";
import type { Sandbox } from "../src/sandbox.js";
import { sandboxFileSystem } from "../src/schemes/sandbox-file-system.js";

// Issue 16 in the workspace: FIFOs and device files in a host mount, a directory swapped for a symlink while a
// tool works on it, host paths in error texts, and the byte quota. Real special files in temp dirs.

const SECRET = "SECRET-OUTSIDE-THE-WORKSPACE";

let kernel: Kernel;
let ws: Invoked;
let dir: string;
let workspace: string;
let outside: string;
let devices = false;

function mknod(path: string, major: number, minor: number): boolean {
  try {
    execFileSync("mknod", [path, "c", String(major), String(minor)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  kernel = await startKernel({ bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } }, undefined, async (root) => {
    dir = root;
    outside = join(root, "outside");
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, "f.txt"), `${SECRET}\n`);
    await writeFile(join(outside, SECRET), "");
  });
  ws = await invokeWorkspace(kernel, { quotaBytes: 64 * 1024 });
  workspace = join(ws.host.home, "workspace");
  await call(ws.tools, "bash", { command: "mkdir -p /home/workspace/d && echo inside > /home/workspace/d/f.txt" });
  execFileSync("mkfifo", [join(workspace, "pipe")]);
  devices = mknod(join(workspace, "zero"), 1, 5);
});

afterAll(async () => {
  await kernel.dispose();
});

const bash = (command: string) => call<BashResult>(ws.tools, "bash", { command });

describe("special files in a host mount", () => {
  it("read_file, bash and workspace:// refuse a FIFO at once, five times in a row, and writes go on", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await failure(ws.tools, "read_file", { path: "pipe" })).message).toMatch(/^ENOTSUP: a FIFO is not a regular file or directory/);
      const shell = await bash("cat /home/workspace/pipe");
      expect(shell.exitCode).not.toBe(0);
      await expect(ws.host.resources.resolve("workspace:///home/workspace/pipe")).rejects.toMatchObject({ code: "resource_read_failed" });
    }
    expect(await call(ws.tools, "write_file", { path: "after.txt", content: "still writing" })).toEqual({ ok: true, bytes: 13 });
    expect(await readFile(join(workspace, "after.txt"), "utf8")).toBe("still writing");
  });

  it("writing to a FIFO is refused without blocking", async () => {
    expect((await failure(ws.tools, "write_file", { path: "pipe", content: "x" })).message).toMatch(/^ENOTSUP: a FIFO is not a regular file or directory/);
  });

  it("a device file (/dev/zero) is refused, not read without bound", async () => {
    if (!devices) return;
    expect((await failure(ws.tools, "read_file", { path: "zero" })).message).toMatch(/^ENOTSUP: a character device is not a regular file or directory/);
    expect((await bash("head -c 10 /home/workspace/zero")).exitCode).not.toBe(0);
    await expect(ws.host.resources.resolve("workspace:///home/workspace/zero:1-2")).rejects.toMatchObject({ code: "resource_read_failed" });
  });
});

describe("no host path in error texts", () => {
  it("ENAMETOOLONG from tools, the shell and workspace:// names sandbox paths only", async () => {
    const long = "n".repeat(300);
    const texts = [
      (await failure(ws.tools, "read_file", { path: long })).message,
      (await failure(ws.tools, "write_file", { path: `${long}/x.txt`, content: "x" })).message,
      JSON.stringify(await bash(`cat /home/workspace/${long}; echo x > /home/workspace/${long}`)),
      String(await ws.host.resources.resolve(`workspace:///home/workspace/${long}`).catch((error: Error) => error.message)),
      String(await ws.host.resources.resolve(`workspace:///home/workspace/d/${"m".repeat(5000)}`).catch((error: Error) => error.message)),
    ];
    for (const text of texts) {
      expect(text).not.toContain(dir);
      expect(text).not.toContain("/tmp/");
    }
  });
});

describe("the workspace byte quota", () => {
  it("a write beyond the quota fails ENOSPC with the figures and leaves the file as it was; removing files makes room", async () => {
    expect(await call(ws.tools, "write_file", { path: "big.txt", content: "a".repeat(40 * 1024) })).toEqual({ ok: true, bytes: 40 * 1024 });
    const refused = await failure(ws.tools, "write_file", { path: "big2.txt", content: "b".repeat(40 * 1024) });
    expect(refused.message).toMatch(/^ENOSPC: workspace quota exceeded: \/home\/workspace\/big2\.txt needs 40960 more bytes, \d+ of 65536 bytes are in use; delete files to make room/);
    // Overwriting counts only the difference.
    expect(await call(ws.tools, "write_file", { path: "big.txt", content: "c".repeat(50 * 1024) })).toEqual({ ok: true, bytes: 50 * 1024 });
    const shell = await bash("for i in 1 2 3 4 5 6 7 8; do printf '%08192d' 0 >> /home/workspace/grow.txt || exit 9; done");
    expect(shell.exitCode).not.toBe(0);
    expect(shell.stderr).toContain("ENOSPC: workspace quota exceeded");
    expect((await readFile(join(workspace, "grow.txt"), "utf8")).length).toBeLessThanOrEqual(16 * 1024);
    await bash("rm /home/workspace/big.txt /home/workspace/grow.txt");
    expect(await call(ws.tools, "write_file", { path: "big2.txt", content: "b".repeat(40 * 1024) })).toEqual({ ok: true, bytes: 40 * 1024 });
    await bash("rm -r /home/workspace/big2.txt");
  });

  it("copies draw on the quota too", async () => {
    await call(ws.tools, "write_file", { path: "c1.txt", content: "x".repeat(30 * 1024) });
    const copies = await bash("cp /home/workspace/c1.txt /home/workspace/c2.txt && cp /home/workspace/c1.txt /home/workspace/c3.txt");
    expect(copies.exitCode).not.toBe(0);
    expect(copies.stderr).toContain("ENOSPC");
    expect(await exists(join(workspace, "c3.txt"))).toBe(false);
    await bash("rm -f /home/workspace/c1.txt /home/workspace/c2.txt");
  });
});

/** A mount whose directory `s` is swapped for a symlink to the outside right after a path was checked. */
class SwappedAfterCheck extends HostFs {
  public swap: (() => Promise<void>) | undefined;

  public override async contain(path: string): Promise<string> {
    const real = await super.contain(path);
    const swap = this.swap;
    this.swap = undefined;
    await swap?.();
    return real;
  }
}

describe("what is operated on is what was checked", () => {
  it("every operation refuses a directory swapped for a symlink between the check and the operation", async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), "ishiki-ws-swap-")));
    const root = join(base, "root");
    const away = join(base, "away");
    await mkdir(join(root, "s"), { recursive: true });
    await mkdir(away);
    await writeFile(join(away, "f.txt"), SECRET);
    const fs = new SwappedAfterCheck({ root, target: "/m", readOnly: false, quota: new ByteQuota(1 << 20, [root]) });
    const operations: Array<[string, () => Promise<unknown>]> = [
      ["readFile", () => fs.readFile("/s/f.txt")],
      ["readFileBuffer", () => fs.readFileBuffer("/s/f.txt")],
      ["readdir", () => fs.readdir("/s")],
      ["stat", () => fs.stat("/s/f.txt")],
      ["writeFile", () => fs.writeFile("/s/f.txt", "pwned")],
      ["writeFile new", () => fs.writeFile("/s/planted.txt", "pwned")],
      ["appendFile", () => fs.appendFile("/s/f.txt", "pwned")],
      ["mkdir", () => fs.mkdir("/s/sub")],
      ["rm", () => fs.rm("/s/f.txt")],
      ["chmod", () => fs.chmod("/s/f.txt", 0o777)],
      ["utimes", () => fs.utimes("/s/f.txt", new Date(0), new Date(0))],
      ["mv", () => fs.mv("/s/f.txt", "/moved.txt")],
    ];
    try {
      for (const [name, operation] of operations) {
        await writeFile(join(root, "s", "f.txt"), "inside");
        fs.swap = async () => {
          await rename(join(root, "s"), join(root, "s.kept"));
          await symlink(away, join(root, "s"));
        };
        const outcome = await operation().then(
          (value) => ({ value }),
          (error: Error) => ({ error }),
        );
        expect("error" in outcome, name).toBe(true);
        expect(String((outcome as { error: Error }).error.message), name).not.toContain(base);
        expect(await readdir(away), name).toEqual(["f.txt"]);
        expect(await readFile(join(away, "f.txt"), "utf8"), name).toBe(SECRET);
        await rm(join(root, "s"));
        await rename(join(root, "s.kept"), join(root, "s"));
      }
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe("workspace:// streams what was located", () => {
  it("a directory swapped for a symlink after locate is refused by prefix and streamed reads", async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), "ishiki-ws-locate-")));
    const root = join(base, "root");
    const away = join(base, "away");
    await mkdir(join(root, "s"), { recursive: true });
    await mkdir(away);
    await writeFile(join(root, "s", "f.txt"), "inside");
    await writeFile(join(away, "f.txt"), SECRET);
    // Only `locate` is used by these reads: it confines the path, then the directory is swapped.
    const sandbox = {
      locate: async () => {
        await rename(join(root, "s"), join(root, "s.kept"));
        await symlink(away, join(root, "s"));
        return join(root, "s", "f.txt");
      },
    } as unknown as Sandbox;
    const restore = async () => {
      await rm(join(root, "s"));
      await rename(join(root, "s.kept"), join(root, "s"));
    };
    const view = sandboxFileSystem(sandbox);
    try {
      await expect(view.readFilePrefix!("/m/s/f.txt", 100)).rejects.toThrow(/the path changed while it was opened/);
      await restore();
      const first = async () => {
        for await (const chunk of view.readText!("/m/s/f.txt")) return chunk;
      };
      await expect(first()).rejects.toThrow(/the path changed while it was opened/);
      await restore();
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

/**
 * Swaps `<workspace>/d` between the real directory and a symlink to the outside, as fast as renames go, in
 * another process: each state is one atomic rename away from the other.
 */
function startSwapper(): ChildProcess {
  const script = `
    const fs = require("node:fs");
    const [d, real, link, outside] = process.argv.slice(1);
    fs.symlinkSync(outside, link);
    for (;;) {
      try { fs.renameSync(d, real); fs.renameSync(link, d); fs.renameSync(d, link); fs.renameSync(real, d); } catch {}
    }`;
  return spawn(process.execPath, ["-e", script, join(workspace, "d"), join(workspace, "d.real"), join(workspace, "d.link"), outside], { stdio: "ignore" });
}

describe("check-then-open race", () => {
  it("a directory swapped for a symlink while tools read, list and write never reaches outside", async () => {
    const swapper = startSwapper();
    let served = 0;
    try {
      // Bounded by count, not by time.
      for (let round = 0; round < 150; round++) {
        const results = await Promise.allSettled([
          ...Array.from({ length: 6 }, () => call<{ content: string }>(ws.tools, "read_file", { path: "/home/workspace/d/f.txt" }).then((r) => r.content)),
          bash("cat /home/workspace/d/f.txt; ls /home/workspace/d").then((r) => r.stdout + r.stderr),
          ...Array.from({ length: 12 }, () => ws.host.resources.resolve("workspace:///home/workspace/d/f.txt").then((p) => (p.type === "text" ? p.text : ""))),
          ...Array.from({ length: 8 }, (_, i) => call(ws.tools, "write_file", { path: `/home/workspace/d/planted-${i}.txt`, content: "planted" }).then(() => "")),
        ]);
        for (const result of results) {
          const text = result.status === "fulfilled" ? result.value : String((result.reason as Error).message);
          expect(text).not.toContain(SECRET);
          expect(text).not.toContain(dir);
          if (result.status === "fulfilled") served++;
        }
      }
    } finally {
      swapper.kill("SIGKILL");
    }
    expect(served).toBeGreaterThan(0);
    expect(await readdir(outside)).toEqual([SECRET, "f.txt"].sort());
    expect(await readFile(join(outside, "f.txt"), "utf8")).toBe(`${SECRET}\n`);
    await rm(join(workspace, "d.real"), { recursive: true, force: true });
    await rm(join(workspace, "d.link"), { force: true });
  }, 240_000);
});
