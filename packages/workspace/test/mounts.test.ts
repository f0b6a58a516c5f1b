import { chmod, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMount, prepareMounts, type BashResult } from "../src/index.js";
import { call, exists, invokeWorkspace, startKernel, type Kernel } from "./support.js";

let kernel: Kernel;
let root: string;

beforeAll(async () => {
  kernel = await startKernel({ bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } }, undefined, async (dir) => {
    root = join(dir, "profiles", "bare");
    await mkdir(join(root, "docs"), { recursive: true });
    await writeFile(join(root, "docs", "guide.md"), "# Guide\n");
    await writeFile(join(root, "plain-file"), "not a directory");
  });
});

afterAll(async () => {
  await kernel.dispose();
});

describe("mount declarations", () => {
  it("WS-4 splits at the last colon before :ro, keeping drive letters and relative sources", () => {
    expect(parseMount("data:/data", "/p")).toEqual({ source: "/p/data", target: "/data", readOnly: false });
    expect(parseMount("docs:/mnt/docs:ro", "/p")).toEqual({ source: "/p/docs", target: "/mnt/docs", readOnly: true });
    expect(parseMount("C:\\share:/share", "/p").target).toBe("/share");
    expect(parseMount("C:\\share:/share:ro", "/p")).toMatchObject({ target: "/share", readOnly: true });
    expect(parseMount("/abs/src:/x//y/", "/p")).toEqual({ source: "/abs/src", target: "/x/y", readOnly: false });
  });

  it("WS-4 rejects bad targets with one-line errors", () => {
    const cases: Array<[string, RegExp]> = [
      ["nocolon", /expected source:target\[:ro\]/],
      ["data:relative", /must be an absolute sandbox path/],
      ["data:/", /must not be \/$/],
      ["data:/a/./b", /must not contain \. or \.\. segments/],
      ["data:/a/../b", /must not contain \. or \.\. segments/],
      ["data:/home", /must not be \/home or below it/],
      ["data:/home/extra", /must not be \/home or below it/],
    ];
    for (const [declaration, reason] of cases) {
      expect(() => parseMount(declaration, "/p"), declaration).toThrow(reason);
      expect(() => parseMount(declaration, "/p")).toThrow(`workspace mount "${declaration}": `);
    }
    expect(() => parseMount("data:/homework", "/p")).not.toThrow();
  });

  it("WS-4 QA-5 duplicate, nested, missing read-only or non-directory sources fail before any directory is created", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["new-a:/data", "new-b:/data"], /duplicates the mount "new-a:\/data"/],
      [["new-a:/data", "new-b:/data/inner"], /nests with the mount "new-a:\/data"/],
      [["new-a:/data/inner", "new-b:/data"], /nests with/],
      [["new-a:/a", "absent:/b:ro"], /read-only source does not exist/],
      [["new-a:/a", "plain-file:/b"], /source is not a directory/],
    ];
    for (const [mounts, reason] of cases) {
      await expect(prepareMounts(mounts, root)).rejects.toThrow(reason);
      expect(await exists(join(root, "new-a")), mounts.join(" ")).toBe(false);
      expect(await exists(join(root, "new-b"))).toBe(false);
    }
  });

  it("WS-4 WS-6 read-write sources are created, each mount stores its source's realpath", async () => {
    await symlink(join(root, "docs"), join(root, "docs-link"));
    const mounts = await prepareMounts(["made/here:/made", "docs-link:/docs:ro"], root);
    expect((await stat(join(root, "made", "here"))).isDirectory()).toBe(true);
    expect(mounts[1]).toMatchObject({ target: "/docs", readOnly: true, root: join(root, "docs") });
  });

  it("WS-2 an invalid mount fails the extension's invoke, so the runtime is not created", async () => {
    await expect(invokeWorkspace(kernel, { mounts: ["x:/x", "y:/x"] })).rejects.toThrow(/duplicates/);
    await expect(invokeWorkspace(kernel, { cwd: "relative" })).rejects.toThrow('workspace cwd "relative": must be an absolute sandbox path');
  });

  it("WS-4 WS-5 mounted files are visible; writable mounts report directories as traversable", async () => {
    const ws = await invokeWorkspace(kernel, { mounts: ["rw:/data", "docs:/docs:ro"] });
    expect(await call<BashResult>(ws.tools, "bash", { command: "cat /docs/guide.md; mkdir -p /data/sub; echo hi > /data/sub/f.txt" })).toEqual({ stdout: "# Guide\n", stderr: "", exitCode: 0 });
    expect(await readFile(join(root, "rw", "sub", "f.txt"), "utf8")).toBe("hi\n");
    const fs = await ws.host.resources.resolve("workspace:///data/sub?view=meta");
    expect(fs.type === "text" && fs.text).toContain("mediaType: inode/directory");
    await chmod(join(root, "rw", "sub"), 0o600);
    const result = await call<BashResult>(ws.tools, "bash", { command: "stat -c %A /data/sub /home/workspace" });
    for (const line of result.stdout.trim().split("\n")) expect(line).toMatch(/^d..x..x..x$/);
  });

  it("WS-1 js-exec and python3 exist only when enabled", async () => {
    const off = await invokeWorkspace(kernel, {});
    for (const command of ["js-exec -c 'console.log(1)'", "python3 -c 'print(1)'"]) {
      expect((await call<BashResult>(off.tools, "bash", { command })).exitCode, command).toBe(127);
    }
    const on = await invokeWorkspace(kernel, { javascript: true, python: true });
    for (const command of ["js-exec --help", "python3 --help"]) {
      const result = await call<BashResult>(on.tools, "bash", { command });
      expect(result.stderr, command).not.toContain("command not found");
    }
  });
});
