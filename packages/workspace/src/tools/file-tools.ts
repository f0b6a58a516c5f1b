import { Buffer } from "node:buffer";
import { posix } from "node:path";
import { jsonSchema, tool, ToolError } from "koishi-plugin-ishiki";
import type { Sandbox } from "../sandbox.js";
import { fsFailure, toolPath } from "./tool-path.js";

const PATH_DESCRIPTION = "Absolute sandbox path, or relative to the working directory.";
const BINARY_PROBE_BYTES = 8192;

/** Runs a file-system call on `path`, turning its failure into the model's error text. */
async function attempt<T>(path: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw fsFailure(path, error);
  }
}

/** The file as UTF-8 text; binary content points to `read` on `workspace://` instead (WS-14). */
async function readText(sandbox: Sandbox, path: string): Promise<string> {
  const fs = await sandbox.fs();
  const bytes = await attempt(path, async () => {
    if ((await fs.stat(path)).isDirectory) throw new ToolError(`EISDIR: is a directory: ${path}; list it with bash ls`);
    return fs.readFileBuffer(path);
  });
  const probe = bytes.subarray(0, BINARY_PROBE_BYTES);
  let text: string | undefined;
  try {
    text = probe.includes(0) ? undefined : new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  if (text === undefined) throw new ToolError(`${path}: binary file; use read({ url: "workspace://${path}" })`);
  return text;
}

async function writeText(sandbox: Sandbox, path: string, content: string): Promise<number> {
  const fs = await sandbox.fs();
  await attempt(path, async () => {
    await fs.mkdir(posix.dirname(path), { recursive: true });
    await fs.writeFile(path, content, "utf8");
  });
  return Buffer.byteLength(content, "utf8");
}

const pathProperty = { type: "string", description: PATH_DESCRIPTION } as const;
const okSchema = <K extends string>(key: K) =>
  jsonSchema<{ ok: true } & Record<K, number>>({
    type: "object",
    properties: { ok: { type: "boolean", const: true }, [key]: { type: "number" } },
    required: ["ok", key],
  });

export function createReadFileTool(sandbox: Sandbox, cwd: string) {
  return tool<{ path: string }, { content: string }, {}>({
    description: "Read a UTF-8 text file of the sandbox whole; returns { content }. For binary files or pages of large files use read with a workspace:// URL.",
    inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: pathProperty }, required: ["path"], additionalProperties: false }),
    outputSchema: jsonSchema<{ content: string }>({ type: "object", properties: { content: { type: "string" } }, required: ["content"] }),
    execute: async ({ path }) => ({ content: await readText(sandbox, toolPath(cwd, path)) }),
  });
}

export function createWriteFileTool(sandbox: Sandbox, cwd: string) {
  return tool<{ path: string; content: string }, { ok: true; bytes: number }, {}>({
    description: "Write a UTF-8 text file, replacing it if it exists and creating missing parent directories; returns { ok: true, bytes }.",
    inputSchema: jsonSchema<{ path: string; content: string }>({
      type: "object",
      properties: { path: pathProperty, content: { type: "string", description: "The complete new content." } },
      required: ["path", "content"],
      additionalProperties: false,
    }),
    outputSchema: okSchema("bytes"),
    execute: async ({ path, content }) => ({ ok: true, bytes: await writeText(sandbox, toolPath(cwd, path), content) }),
  });
}

interface EditInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/** Replaces exact text (WS-16); every refusal leaves the file untouched. */
async function editText(sandbox: Sandbox, path: string, input: EditInput): Promise<number> {
  const { old_string: before, new_string: after } = input;
  if (before === "") throw new ToolError(`${path}: old_string is empty; quote the exact text to replace`);
  if (before === after) throw new ToolError(`${path}: old_string and new_string are identical; nothing to change`);
  const text = await readText(sandbox, path);
  const parts = text.split(before);
  const count = parts.length - 1;
  if (count === 0) throw new ToolError(`${path}: old_string not found; it must match the file exactly, whitespace included`);
  if (count > 1 && input.replace_all !== true) {
    throw new ToolError(`${path}: old_string matches ${count} times; include more surrounding text to make it unique, or set replace_all: true`);
  }
  await writeText(sandbox, path, parts.join(after));
  return count;
}

export function createEditFileTool(sandbox: Sandbox, cwd: string) {
  return tool<EditInput, { ok: true; replacements: number }, {}>({
    description: "Replace exact text in a UTF-8 file: old_string must occur exactly once unless replace_all is true; returns { ok: true, replacements }.",
    inputSchema: jsonSchema<EditInput>({
      type: "object",
      properties: {
        path: pathProperty,
        old_string: { type: "string", description: "The exact text to replace, whitespace included." },
        new_string: { type: "string", description: "The replacement text." },
        replace_all: { type: "boolean", description: "Replace every occurrence (default false)." },
      },
      required: ["path", "old_string", "new_string"],
      additionalProperties: false,
    }),
    outputSchema: okSchema("replacements"),
    execute: async (input) => ({ ok: true, replacements: await editText(sandbox, toolPath(cwd, input.path), input) }),
  });
}
