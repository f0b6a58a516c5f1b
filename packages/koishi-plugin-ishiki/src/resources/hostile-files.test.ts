import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResourceCenter, type OwnedResourceCenter } from "./center.js";
import { containPath } from "./contain-path.js";
import { hostFileSystem } from "./host-file-system.js";
import { ResourceError } from "./resource-error.js";

// Issue 16: FIFOs and device files in the home, a directory swapped for a symlink while it is read, and host
// paths in error texts. Everything here uses real special files in a temp dir.

const SECRET = "SECRET-OUTSIDE-THE-HOME";

let base: string;
let home: string;
let center: OwnedResourceCenter;

function mknod(path: string, major: number, minor: number): boolean {
  try {
    execFileSync("mknod", [path, "c", String(major), String(minor)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let devices = false;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "ishiki-hostile-")));
  home = join(base, "home");
  await mkdir(join(home, "d"), { recursive: true });
  await mkdir(join(base, "outside"));
  await writeFile(join(home, "d", "f.txt"), "inside\n");
  await writeFile(join(base, "outside", "f.txt"), `${SECRET}\n`);
  await writeFile(join(base, "outside", SECRET), "");
  execFileSync("mkfifo", [join(home, "pipe"), join(home, "d", "pipe2")]);
  // /dev/zero and /dev/null as device files inside the home (needs CAP_MKNOD, which the CI root has).
  devices = mknod(join(home, "zero"), 1, 5) && mknod(join(home, "null"), 1, 3);
  center = createResourceCenter({ runtimeId: "p:hostile", home });
});

afterAll(async () => {
  center.dispose();
  await rm(base, { recursive: true, force: true });
});

async function failure(url: string): Promise<ResourceError> {
  const error = await center.resolve(url).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(ResourceError);
  return error as ResourceError;
}

describe("special files in the home are refused without opening them", () => {
  it("a FIFO is refused at once, five times in a row, and file I/O of the process goes on", async () => {
    // Before the fix each read held a libuv thread forever; the fifth stalled every later file operation.
    for (let i = 0; i < 5; i++) {
      for (const url of ["local://pipe", "local://d/pipe2", "local://pipe:1-2", "local://pipe#offset=0"]) {
        const error = await failure(url);
        expect(error.code).toBe("resource_read_failed");
        expect(error.message).toContain("a FIFO is not a regular file or directory");
      }
    }
    await writeFile(join(home, "after.txt"), "still writing\n");
    expect(await center.resolve("local://after.txt")).toMatchObject({ text: "still writing\n" });
  });

  it("a FIFO's metadata view is refused too", async () => {
    expect((await failure("local://pipe?view=meta")).code).toBe("resource_read_failed");
  });

  it.runIf(process.platform === "linux")("device files (/dev/zero, /dev/null) are refused, not read without bound", async () => {
    if (!devices) return;
    for (const url of ["local://zero", "local://zero:1-3", "local://null", "local://zero?view=meta"]) {
      const error = await failure(url);
      expect(error.code).toBe("resource_read_failed");
      expect(error.message).toContain("a character device is not a regular file or directory");
    }
  });

  it("a directory listing still names special files, without opening them; a link to a directory lists as one", async () => {
    const listing = await center.resolve("local://d");
    expect(listing).toMatchObject({ type: "text", text: "f.txt\npipe2" });
    await mkdir(join(home, "l"));
    await symlink("../d", join(home, "l", "to-d"));
    await symlink("../pipe", join(home, "l", "to-pipe"));
    expect(await center.resolve("local://l")).toMatchObject({ type: "text", text: "to-d/\nto-pipe" });
  });
});

describe("no host path in error texts", () => {
  it("ENAMETOOLONG and other system errors name the URL, not the home", async () => {
    const long = "x".repeat(5000);
    for (const url of [`local://${long}`, `local://d/${long}`, `local://${"y".repeat(300)}/f.txt`]) {
      const error = await failure(url);
      expect(error.message).not.toContain(base);
      expect(error.message).not.toContain("/tmp");
    }
  });
});

describe("what is opened is what was checked", () => {
  it("a directory swapped for a symlink after containPath is refused by every host read", async () => {
    await mkdir(join(home, "s"));
    await writeFile(join(home, "s", "f.txt"), "inside\n");
    const file = await containPath(home, "s/f.txt", "local");
    const dir = await containPath(home, "s", "local");
    await rename(join(home, "s"), join(home, "s.kept"));
    await symlink(join(base, "outside"), join(home, "s"));
    try {
      for (const read of [
        () => hostFileSystem.readFileBuffer(file),
        () => hostFileSystem.readFilePrefix!(file, 100),
        () => hostFileSystem.stat(file),
        () => hostFileSystem.readdir(dir),
        async () => {
          for await (const chunk of hostFileSystem.readText!(file)) return chunk;
        },
      ]) {
        await expect(read()).rejects.toMatchObject({ code: "EACCES", message: expect.stringContaining("the path changed while it was opened") });
      }
    } finally {
      await rm(join(home, "s"));
      await rename(join(home, "s.kept"), join(home, "s"));
    }
  });
});

/** Swaps `<home>/d` between the real directory and a symlink to the outside, as fast as it can, in another process. */
function startSwapper(): ChildProcess {
  const script = `
    const fs = require("node:fs");
    const [d, keep, outside] = process.argv.slice(1);
    for (;;) {
      try { fs.renameSync(d, keep); fs.symlinkSync(outside, d); fs.unlinkSync(d); fs.renameSync(keep, d); } catch {}
    }`;
  return spawn(process.execPath, ["-e", script, join(home, "d"), join(home, "d.keep"), join(base, "outside")], { stdio: "ignore" });
}

describe("check-then-open race", () => {
  it("a directory swapped for a symlink between the check and the open never lets a read reach outside", async () => {
    const swapper = startSwapper();
    const seen = { inside: 0, refused: 0 };
    try {
      // Bounded by count, not by time: enough rounds that the unfixed check-then-open leaked every run.
      for (let round = 0; round < 1500; round++) {
        const urls = ["local://d/f.txt", "local://d", "local://d/f.txt:1"];
        const results = await Promise.allSettled(urls.map((url) => center.resolve(url)));
        for (const result of results) {
          if (result.status === "fulfilled") {
            const text = result.value.type === "text" ? result.value.text : "";
            expect(text).not.toContain(SECRET);
            seen.inside++;
          } else {
            expect(result.reason).toBeInstanceOf(ResourceError);
            expect(String(result.reason.message)).not.toContain(SECRET);
            expect(String(result.reason.message)).not.toContain(base);
            seen.refused++;
          }
        }
      }
    } finally {
      swapper.kill("SIGKILL");
    }
    expect(seen.inside).toBeGreaterThan(0);
  }, 120_000);
});

describe("an extension handler's error naming the home", () => {
  it("is shown with local:// instead of the host path", async () => {
    const detach = center.attach({
      scheme: "leaky",
      resolve: () => {
        throw new ResourceError("resource_read_failed", `cannot open ${join(home, "d", "f.txt")} or ${home}`);
      },
    });
    try {
      const error = await failure("leaky://x");
      expect(error.message).toBe("cannot open local://d/f.txt or local://");
    } finally {
      detach();
    }
  });
});
