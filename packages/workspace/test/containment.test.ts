import { link, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, exists, failure, invokeWorkspace, snapshot, startKernel, type Invoked, type Kernel } from "./support.js";
import type { BashResult } from "../src/index.js";

const SECRET = "TOPSECRET-do-not-leak";

let kernel: Kernel;
let ws: Invoked;
let outside: string;
let workspace: string;
let root: string;
let before: Record<string, string>;

beforeAll(async () => {
  kernel = await startKernel({ bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } }, undefined, async (dir) => {
    root = join(dir, "profiles", "bare");
    outside = join(dir, "outside");
    await mkdir(join(outside, "sub"), { recursive: true });
    await writeFile(join(outside, "secret.txt"), SECRET);
    await writeFile(join(outside, "sub", "inner.txt"), SECRET);
    await mkdir(join(root, "ro"), { recursive: true });
    await writeFile(join(root, "ro", "readme.txt"), "read only\n");
    await mkdir(join(root, "data_evil"), { recursive: true });
    await writeFile(join(root, "data_evil", "evil.txt"), SECRET);
  });
  ws = await invokeWorkspace(kernel, { mounts: ["data:/data", "ro:/ro:ro"] });
  workspace = join(ws.host.home, "workspace");
  await call(ws.tools, "bash", { command: "echo ok > /home/workspace/probe.txt" });
  // Links an attacker (or a careless bot author) planted on the host.
  await symlink(join(outside, "secret.txt"), join(workspace, "link-out"));
  await symlink(join(workspace, "link-out"), join(workspace, "chain-1"));
  await symlink(join(workspace, "chain-1"), join(workspace, "chain-2"));
  await symlink(outside, join(workspace, "dir-out"));
  await symlink(join(outside, "missing.txt"), join(workspace, "dangling-out"));
  await symlink("../data_evil/evil.txt", join(root, "data", "sibling"));
  await symlink(join(ws.host.home, "resources"), join(workspace, "to-resources"));
  await writeFile(join(workspace, "mine.txt"), "mine\n");
});

afterAll(async () => {
  await kernel.dispose();
});

beforeEach(async () => {
  before = await snapshot(outside);
});

async function untouched(): Promise<void> {
  expect(await snapshot(outside)).toEqual(before);
  expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe(SECRET);
}

async function bash(command: string): Promise<BashResult> {
  return call<BashResult>(ws.tools, "bash", { command });
}

function refusedShell(result: BashResult): void {
  expect(result.exitCode).not.toBe(0);
  expect(result.stdout + result.stderr).not.toContain(SECRET);
}

describe("WS-8 containment: every attack is refused and no host file outside the roots changes", () => {
  it("WS-7 WS-8 attack 1: a symlink in the workspace to a host file outside is not followed", async () => {
    expect(await failure(ws.tools, "read_file", { path: "link-out" })).toEqual({ name: "ToolError", message: "EACCES: path escapes mount /home/workspace" });
    refusedShell(await bash("cat /home/workspace/link-out"));
    await untouched();
  });

  it("WS-7 WS-8 attack 2: a chain of symlinks ending outside is not followed", async () => {
    expect((await failure(ws.tools, "read_file", { path: "/home/workspace/chain-2" })).message).toBe("EACCES: path escapes mount /home/workspace");
    refusedShell(await bash("cat chain-2"));
    await untouched();
  });

  it("WS-6 WS-8 attack 3: writing through a symlinked directory that points outside", async () => {
    expect((await failure(ws.tools, "write_file", { path: "dir-out/planted.txt", content: "x" })).message).toBe("EACCES: path escapes mount /home/workspace");
    refusedShell(await bash("echo x > dir-out/planted2.txt"));
    expect(await exists(join(outside, "planted.txt"))).toBe(false);
    expect(await exists(join(outside, "planted2.txt"))).toBe(false);
    await untouched();
  });

  it("WS-6 WS-8 attack 4: a dangling symlink to a new file outside cannot create it", async () => {
    expect((await failure(ws.tools, "write_file", { path: "dangling-out", content: "x" })).message).toBe("EACCES: path escapes mount /home/workspace");
    refusedShell(await bash("echo x >> dangling-out"));
    expect(await exists(join(outside, "missing.txt"))).toBe(false);
    await untouched();
  });

  it("WS-6 WS-8 attack 5: a root-name-prefix sibling (data vs data_evil) is outside the mount", async () => {
    expect((await failure(ws.tools, "read_file", { path: "/data/sibling" })).message).toBe("EACCES: path escapes mount /data");
    refusedShell(await bash("cat /data/sibling"));
    expect(await readFile(join(root, "data_evil", "evil.txt"), "utf8")).toBe(SECRET);
    await untouched();
  });

  it("WS-8 attack 6: `..` in tool paths stays inside the virtual file system", async () => {
    const deep = `../../../../../../../../..${outside}/secret.txt`;
    expect(await failure(ws.tools, "read_file", { path: deep })).toEqual({ name: "ToolError", message: `ENOENT: no such file: ${outside}/secret.txt` });
    expect(await failure(ws.tools, "write_file", { path: "../escaped.txt", content: "x" })).toEqual({ name: "ToolError", message: "EROFS: read-only file system: /home/escaped.txt" });
    expect(await exists(join(ws.host.home, "escaped.txt"))).toBe(false);
    refusedShell(await bash(`cat ${deep}`));
    await untouched();
  });

  it("WS-8 attack 7: percent-encoded `..` and `/` in workspace:// and skill:// URLs", async () => {
    for (const url of [
      "workspace:///home/workspace/%2e%2e/%2e%2e/etc/passwd",
      "workspace:///home/workspace/%2E%2E/workspace/mine.txt",
      "workspace:///home/workspace/..%2f..%2foutside%2fsecret.txt",
      "skill://any/%2e%2e/%2e%2e/secret.txt",
    ]) {
      await expect(ws.host.resources.resolve(url)).rejects.toMatchObject({ name: "ResourceError", code: "invalid_resource_uri" });
    }
    await untouched();
  });

  it("WS-8 attack 8: NUL in a tool path or a URL", async () => {
    expect(await failure(ws.tools, "read_file", { path: "mine.txt\0../../etc/passwd" })).toEqual({ name: "ToolError", message: "EINVAL: NUL is not allowed in a path" });
    expect((await failure(ws.tools, "write_file", { path: "x\0y", content: "x" })).message).toBe("EINVAL: NUL is not allowed in a path");
    await expect(ws.host.resources.resolve("workspace:///home/workspace/mine.txt%00.png")).rejects.toMatchObject({ code: "invalid_resource_uri" });
    await untouched();
  });

  it("WS-8 attack 9: an absolute host path is a sandbox path, never the host's", async () => {
    const host = join(outside, "secret.txt");
    expect((await failure(ws.tools, "read_file", { path: host })).message).toBe(`ENOENT: no such file: ${host}`);
    await expect(ws.host.resources.resolve(`workspace://${host}`)).rejects.toMatchObject({ code: "resource_not_found" });
    refusedShell(await bash(`cat ${host}`));
    await untouched();
  });

  it("WS-15 WS-8 attack 10: writing through a read-only mount", async () => {
    expect(await failure(ws.tools, "write_file", { path: "/ro/readme.txt", content: "pwned" })).toEqual({ name: "ToolError", message: "EROFS: read-only file system: /ro/readme.txt" });
    expect((await failure(ws.tools, "edit_file", { path: "/ro/readme.txt", old_string: "read", new_string: "pwned" })).message).toBe("EROFS: read-only file system: /ro/readme.txt");
    refusedShell(await bash("echo pwned > /ro/readme.txt"));
    refusedShell(await bash("rm /ro/readme.txt"));
    refusedShell(await bash("mkdir /ro/new"));
    expect(await readFile(join(root, "ro", "readme.txt"), "utf8")).toBe("read only\n");
    expect(await exists(join(root, "ro", "new"))).toBe(false);
    await untouched();
  });

  it("WS-6 WS-8 attack 11: renaming a file out of its mount through a symlinked directory", async () => {
    refusedShell(await bash("mv /home/workspace/mine.txt /home/workspace/dir-out/stolen.txt"));
    refusedShell(await bash("cp /home/workspace/mine.txt /home/workspace/dir-out/copied.txt"));
    expect(await readFile(join(workspace, "mine.txt"), "utf8")).toBe("mine\n");
    expect(await exists(join(outside, "stolen.txt"))).toBe(false);
    expect(await exists(join(outside, "copied.txt"))).toBe(false);
    await untouched();
  });

  it("WS-8 attack 12: renaming or removing files of a read-only mount", async () => {
    refusedShell(await bash("mv /ro/readme.txt /data/moved.txt"));
    expect(await readFile(join(root, "ro", "readme.txt"), "utf8")).toBe("read only\n");
    refusedShell(await bash("mv /home/workspace/mine.txt /home/mine.txt"));
    expect(await exists(join(ws.host.home, "mine.txt"))).toBe(false);
    expect(await readFile(join(workspace, "mine.txt"), "utf8")).toBe("mine\n");
    await untouched();
  });

  it("WS-4 WS-8 attack 13: a mount target at or under /home is rejected before anything is created", async () => {
    for (const mounts of [["evil:/home/evil"], ["evil:/home"], ["evil:/home/workspace"], ["evil:/"], ["evil:/a/../home"]]) {
      await expect(invokeWorkspace(kernel, { mounts })).rejects.toThrow(/^workspace mount "/);
    }
    expect(await exists(join(root, "evil"))).toBe(false);
    await untouched();
    ws = await invokeWorkspace(kernel, { mounts: ["data:/data", "ro:/ro:ro"] });
  });

  it("WS-7 WS-8 attack 14: creating symlinks or hard links out of the workspace", async () => {
    const result = await bash(`ln -s ${join(outside, "secret.txt")} /home/workspace/new-link`);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain("ENOTSUP: symlinks are not supported in host mounts");
    refusedShell(await bash("ln -s /home/workspace/mine.txt /data/inner-link"));
    refusedShell(await bash("ln /home/workspace/link-out /home/workspace/hard"));
    expect(await exists(join(workspace, "new-link"))).toBe(false);
    expect(await exists(join(root, "data", "inner-link"))).toBe(false);
    expect(await exists(join(workspace, "hard"))).toBe(false);
    await untouched();
  });

  it("WS-3 WS-8 attack 15: the store under /home/resources is hidden, also through a symlink", async () => {
    await ws.host.resources.store.writeArtifact("probe", new TextEncoder().encode("artifact bytes"), { mediaType: "text/plain" });
    const listing = await bash("ls -a /home");
    expect(listing.stdout.split("\n")).not.toContain("resources");
    refusedShell(await bash("ls /home/resources/artifacts"));
    expect((await failure(ws.tools, "read_file", { path: "/home/resources/artifacts/probe" })).message).toBe("ENOENT: no such file: /home/resources/artifacts/probe");
    expect((await failure(ws.tools, "read_file", { path: "to-resources" })).message).toBe("EACCES: path escapes mount /home/workspace");
    await expect(ws.host.resources.resolve("workspace:///home/resources")).rejects.toMatchObject({ code: "resource_not_found" });
    await untouched();
  });

  it("WS-7 WS-8 attack 16: workspace:// does not follow a symlink out, on any operation", async () => {
    for (const url of ["workspace:///home/workspace/link-out", "workspace:///home/workspace/chain-2?view=meta", "workspace:///home/workspace/dir-out", "workspace:///home/workspace/dir-out/sub/inner.txt:1-2"]) {
      const error = await ws.host.resources.resolve(url).then(
        () => undefined,
        (caught: Error) => caught,
      );
      expect(error?.name).toBe("ResourceError");
      expect(error?.message).not.toContain(SECRET);
      expect(error?.message).not.toContain(outside);
    }
    await untouched();
  });

  it("WS-6 WS-8 attack 17: every shell operation through an outward directory link is refused", async () => {
    for (const command of ["ls dir-out", "cd dir-out && cat secret.txt", "stat dir-out/secret.txt", "rm dir-out/secret.txt", "rm -r dir-out/sub", "touch dir-out/new.txt", "find dir-out", "grep -r TOPSECRET dir-out", "chmod 777 dir-out/secret.txt"]) {
      const result = await bash(command);
      expect(result.stdout + result.stderr, command).not.toContain(SECRET);
      expect(result.stdout, command).not.toContain("inner.txt");
    }
    expect(await exists(join(outside, "new.txt"))).toBe(false);
    expect(await exists(join(outside, "sub", "inner.txt"))).toBe(true);
    await untouched();
  });

  it("WS-6 a hard link planted on the host cannot carry writes outside", async () => {
    await link(join(outside, "secret.txt"), join(workspace, "hard-planted")).catch(() => undefined);
    if (await exists(join(workspace, "hard-planted"))) {
      await call(ws.tools, "write_file", { path: "hard-planted", content: "overwritten" });
      await bash("echo appended >> hard-planted");
    }
    await untouched();
  });
});
