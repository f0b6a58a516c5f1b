import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asSchema } from "koishi-plugin-ishiki";
import type { ToolSet } from "koishi-plugin-ishiki";
import { bashDisplay } from "../src/tools/bash-result.js";
import { runCommand, WorkspaceSettings, type BashResult, type Sandbox } from "../src/index.js";
import { call, failure, invokeWorkspace, startKernel, type Invoked, type Kernel } from "./support.js";

let kernel: Kernel;
let ws: Invoked;
let workspace: string;

beforeAll(async () => {
  kernel = await startKernel({ bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } });
  ws = await invokeWorkspace(kernel, { timeoutMs: 2000, maxExecutionOutputBytes: 1000 });
  workspace = join(ws.host.home, "workspace");
});

afterAll(async () => {
  await kernel.dispose();
});

const bash = (command: string, signal?: AbortSignal) => call<BashResult>(ws.tools, "bash", { command }, signal);

async function outputSchema(tools: ToolSet, name: string): Promise<unknown> {
  return asSchema(tools[name].outputSchema!).jsonSchema;
}

describe("tools", () => {
  it("WS-9 all four tools declare an output schema", async () => {
    expect(Object.keys(ws.tools)).toEqual(["bash", "read_file", "write_file", "edit_file"]);
    expect(await outputSchema(ws.tools, "bash")).toMatchObject({ required: ["stdout", "stderr", "exitCode"] });
    expect(await outputSchema(ws.tools, "read_file")).toMatchObject({ required: ["content"] });
    expect(await outputSchema(ws.tools, "write_file")).toMatchObject({ required: ["ok", "bytes"] });
    expect(await outputSchema(ws.tools, "edit_file")).toMatchObject({ required: ["ok", "replacements"] });
  });

  it("WS-10 bash returns stdout, stderr and exit code; a non-zero exit is a normal result", async () => {
    expect(await bash("echo out; echo err >&2; exit 3")).toEqual({ stdout: "out\n", stderr: "err\n", exitCode: 3 });
  });

  it("WS-10 shell state does not persist between calls, file changes do", async () => {
    await bash("export KEEP=1; cd /tmp; echo kept > /home/workspace/state.txt");
    expect(await bash('echo "[$KEEP]"; pwd; cat state.txt')).toEqual({ stdout: "[]\n/home/workspace\nkept\n", stderr: "", exitCode: 0 });
    expect(await readFile(join(workspace, "state.txt"), "utf8")).toBe("kept\n");
  });

  it("WS-10 an interpreter failure becomes a bash: result with exit code 1", async () => {
    // A shell whose interpreter throws, as just-bash does on internal failures.
    const broken = { shell: async () => ({ exec: async () => Promise.reject(new Error("internal parser failure\n    at Parser.parse")) }) } as unknown as Sandbox;
    const settings = new WorkspaceSettings({} as WorkspaceSettings);
    expect(await runCommand(broken, settings, "echo hi")).toEqual({ stdout: "", stderr: "bash: internal parser failure", exitCode: 1 });
  });

  it("WS-11 a command over timeoutMs exits 124 and says so", async () => {
    const result = await bash("echo started; sleep 10; echo never");
    expect(result.exitCode).toBe(124);
    expect(result.stderr.endsWith("bash: command timed out after 2000 ms")).toBe(true);
  });

  it("WS-11 the turn's abort signal stops the command", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("turn aborted")), 50);
    // Without the turn's signal the command would run into the 2000 ms timeout and return exit code 124.
    await expect(bash("sleep 10; echo never", controller.signal)).rejects.toThrow("turn aborted");
  });

  it("WS-12 each stream is cut at maxExecutionOutputBytes with a note", async () => {
    // Its own instance with room to run: the 400-iteration loop took over the suite's 2 s timeout on a loaded machine.
    const roomy = await invokeWorkspace(kernel, { timeoutMs: 60_000, maxExecutionOutputBytes: 1000 });
    const result = await call<BashResult>(roomy.tools, "bash", { command: "for i in $(seq 1 400); do echo -n abcdé; echo -n xyz >&2; done" });
    expect(result.stdout).toMatch(/\n\[output truncated at 1000 bytes\]$/);
    expect(Buffer.byteLength(result.stdout.split("\n[output")[0])).toBeLessThanOrEqual(1000);
    expect(result.stdout.split("\n[output")[0]).not.toContain("\uFFFD");
    expect(result.stderr).toBe(`${"xyz".repeat(333)}x\n[output truncated at 1000 bytes]`);
  });

  it("WS-13 the model sees the exit code, then the non-empty streams", async () => {
    expect(bashDisplay({ stdout: "a\n", stderr: "", exitCode: 0 })).toBe("exit code: 0\n--- stdout ---\na\n");
    expect(bashDisplay({ stdout: "", stderr: "bad\n", exitCode: 2 })).toBe("exit code: 2\n--- stderr ---\nbad\n");
    expect(bashDisplay({ stdout: "o", stderr: "e", exitCode: 1 })).toBe("exit code: 1\n--- stdout ---\no\n--- stderr ---\ne");
    const toModelOutput = ws.tools.bash.toModelOutput!;
    expect(await toModelOutput({ toolCallId: "x", input: { command: "true" }, output: { stdout: "", stderr: "", exitCode: 0 } })).toEqual({ type: "text", value: "exit code: 0" });
  });

  it("WS-14 read_file reads absolute and cwd-relative paths", async () => {
    await writeFile(join(workspace, "hello.txt"), "héllo\n");
    expect(await call(ws.tools, "read_file", { path: "hello.txt" })).toEqual({ content: "héllo\n" });
    expect(await call(ws.tools, "read_file", { path: "/home/workspace/hello.txt" })).toEqual({ content: "héllo\n" });
  });

  it("WS-14 read_file errors: missing file, binary file", async () => {
    expect(await failure(ws.tools, "read_file", { path: "nope.txt" })).toEqual({ name: "ToolError", message: "ENOENT: no such file: /home/workspace/nope.txt" });
    await writeFile(join(workspace, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    expect(await failure(ws.tools, "read_file", { path: "image.png" })).toEqual({
      name: "ToolError",
      message: '/home/workspace/image.png: binary file; use read({ url: "workspace:///home/workspace/image.png" })',
    });
  });

  it("WS-15 write_file overwrites, creates parents and counts UTF-8 bytes", async () => {
    expect(await call(ws.tools, "write_file", { path: "deep/er/file.txt", content: "first" })).toEqual({ ok: true, bytes: 5 });
    expect(await call(ws.tools, "write_file", { path: "deep/er/file.txt", content: "日本" })).toEqual({ ok: true, bytes: 6 });
    expect(await readFile(join(workspace, "deep/er/file.txt"), "utf8")).toBe("日本");
  });

  it("WS-15 write_file on a read-only path fails EROFS", async () => {
    expect(await failure(ws.tools, "write_file", { path: "/home/events.txt", content: "x" })).toEqual({ name: "ToolError", message: "EROFS: read-only file system: /home/events.txt" });
    expect(await failure(ws.tools, "write_file", { path: "/home/.ishiki/assets/x", content: "x" })).toEqual({ name: "ToolError", message: "EROFS: read-only file system: /home/.ishiki/assets/x" });
  });

  it("WS-16 edit_file replaces one exact occurrence, or all with replace_all", async () => {
    await writeFile(join(workspace, "edit.txt"), "alpha beta alpha\n");
    expect(await call(ws.tools, "edit_file", { path: "edit.txt", old_string: "beta", new_string: "$& gamma" })).toEqual({ ok: true, replacements: 1 });
    expect(await readFile(join(workspace, "edit.txt"), "utf8")).toBe("alpha $& gamma alpha\n");
    expect(await call(ws.tools, "edit_file", { path: "edit.txt", old_string: "alpha", new_string: "A", replace_all: true })).toEqual({ ok: true, replacements: 2 });
    expect(await readFile(join(workspace, "edit.txt"), "utf8")).toBe("A $& gamma A\n");
  });

  it("WS-16 edit_file refusals leave the file untouched", async () => {
    await writeFile(join(workspace, "keep.txt"), "one two one\n");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ old_string: "two", new_string: "two" }, "/home/workspace/keep.txt: old_string and new_string are identical; nothing to change"],
      [{ old_string: "", new_string: "x" }, "/home/workspace/keep.txt: old_string is empty; quote the exact text to replace"],
      [{ old_string: "three", new_string: "x" }, "/home/workspace/keep.txt: old_string not found; it must match the file exactly, whitespace included"],
      [{ old_string: "one", new_string: "x" }, "/home/workspace/keep.txt: old_string matches 2 times; include more surrounding text to make it unique, or set replace_all: true"],
    ];
    for (const [input, message] of cases) {
      expect(await failure(ws.tools, "edit_file", { path: "keep.txt", ...input })).toEqual({ name: "ToolError", message });
      expect(await readFile(join(workspace, "keep.txt"), "utf8")).toBe("one two one\n");
    }
    expect((await failure(ws.tools, "edit_file", { path: "missing.txt", old_string: "a", new_string: "b" })).message).toBe("ENOENT: no such file: /home/workspace/missing.txt");
  });
});
