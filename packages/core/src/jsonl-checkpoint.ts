import { createHash } from "node:crypto";
import { open, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { codeOf } from "./jsonl-lines.js";

/** Where a checkpoint's prefix of events.jsonl ends, and what it looked like there. */
export interface JsonlCursor {
  /** Bytes covered: the prefix ends just after a newline. */
  bytes: number;
  /** The number of the first line after the prefix. */
  line: number;
  /** Hashes of the prefix's first and last bytes: a file that was cleared, cut or rewritten no longer matches. */
  head: string;
  tail: string;
}

export interface JsonlCheckpoint {
  cursor: JsonlCursor;
  /** The problems reported for lines inside the prefix, reported again when a restart skips reading them (AG-8). */
  reports: string[];
  state: unknown;
}

const FORMAT = 1;
/** Bytes hashed at each end of the prefix. */
const EDGE_BYTES = 4096;

/** `events.jsonl` → `events.checkpoint.json`, beside it. */
export function checkpointPathOf(path: string): string {
  const name = basename(path);
  return join(dirname(path), `${name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : name}.checkpoint.json`);
}

/** The cursor of the file's first `bytes` bytes (`line`: the number of the line after them). */
export async function cursorOf(path: string, bytes: number, line: number): Promise<JsonlCursor | undefined> {
  const handle = await open(path, "r").catch((error: unknown) => {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  });
  if (handle === undefined) return undefined;
  try {
    const { size } = await handle.stat();
    if (size < bytes) return undefined;
    const head = Buffer.alloc(Math.min(EDGE_BYTES, bytes));
    const tail = Buffer.alloc(Math.min(EDGE_BYTES, bytes));
    await handle.read(head, 0, head.length, 0);
    await handle.read(tail, 0, tail.length, bytes - tail.length);
    return { bytes, line, head: digest(head), tail: digest(tail) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Written to a temporary file and renamed over the old one, so a crash leaves the old checkpoint or the new. */
export async function writeCheckpoint(path: string, checkpoint: JsonlCheckpoint): Promise<void> {
  const target = checkpointPathOf(path);
  const temporary = `${target}.tmp`;
  await writeFile(temporary, JSON.stringify({ format: FORMAT, ...checkpoint }), "utf8");
  await rename(temporary, target);
}

/**
 * The checkpoint beside `path` when it still describes the file's beginning; otherwise why not (`reason`), or
 * nothing when there is none.
 */
export async function readCheckpoint(path: string): Promise<{ checkpoint: JsonlCheckpoint } | { reason: string } | undefined> {
  let text: string;
  try {
    text = await readFile(checkpointPathOf(path), "utf8");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    return { reason: `cannot be read (${error instanceof Error ? error.message : String(error)})` };
  }
  const checkpoint = parseCheckpoint(text);
  if (checkpoint === undefined) return { reason: "is not a checkpoint of this version" };
  const { bytes, line, head, tail } = checkpoint.cursor;
  const now = await cursorOf(path, bytes, line);
  if (now === undefined) return { reason: `covers ${bytes} bytes, more than the file holds` };
  if (now.head !== head || now.tail !== tail) return { reason: "no longer matches the file's beginning" };
  return { checkpoint };
}

export async function removeCheckpoint(path: string): Promise<void> {
  await unlink(checkpointPathOf(path)).catch((error: unknown) => {
    if (codeOf(error) !== "ENOENT") throw error;
  });
}

function parseCheckpoint(text: string): JsonlCheckpoint | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { format, cursor, reports, state } = value as Record<string, unknown>;
  if (format !== FORMAT || !isCursor(cursor) || !Array.isArray(reports) || !reports.every((report) => typeof report === "string")) return undefined;
  return { cursor, reports: reports as string[], state };
}

function isCursor(value: unknown): value is JsonlCursor {
  if (typeof value !== "object" || value === null) return false;
  const { bytes, line, head, tail } = value as Record<string, unknown>;
  return Number.isSafeInteger(bytes) && (bytes as number) > 0 && Number.isSafeInteger(line) && (line as number) > 1 && typeof head === "string" && typeof tail === "string";
}

function digest(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("base64");
}
