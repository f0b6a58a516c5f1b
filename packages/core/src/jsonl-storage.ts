import { appendFile, mkdir, readFile, truncate, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { serializeEntry, type AgentEntry } from "./entry.js";
import { silentLogger, type AgentLogger } from "./logger.js";
import type { AgentStorage } from "./storage.js";

export interface JsonlStorageOptions {
  /** Receives a warning per torn or corrupt line found while reading (AG-8). */
  logger?: AgentLogger;
}

interface ParsedStream {
  entries: AgentEntry[];
  /** Byte length of the prefix that ends with the last intact line; anything after it is cut before writing. */
  validBytes: number;
  fileBytes: number;
  problems: string[];
}

/**
 * The events.jsonl storage (AG-5 .. AG-10): UTF-8, one entry per line, each line ending in `\n`, no header.
 * Each `append` is one append write; there is no fsync and no lock, so a crash can lose the last batch but
 * never reorder or split earlier lines. A torn or unparsable final line is ignored and cut off before the
 * next append; a corrupt middle line is skipped. Both are reported.
 */
export function createJsonlStorage(path: string, options: JsonlStorageOptions = {}): AgentStorage {
  const logger = options.logger ?? silentLogger;
  const listeners = new Set<(message: string) => void>();
  // The byte length known to end with an intact line; undefined until the file was scanned once.
  let validBytes: number | undefined;
  // Set when bytes past `validBytes` may exist: a torn tail found by a read, or a failed append.
  let dirtyTail = false;
  let directoryReady = false;

  const report = (message: string): void => {
    logger.warn(message);
    for (const listener of listeners) listener(message);
  };

  const scan = async (): Promise<ParsedStream> => {
    const parsed = parseStream(path, await readBytes(path));
    validBytes = parsed.validBytes;
    dirtyTail = parsed.fileBytes > parsed.validBytes;
    for (const problem of parsed.problems) report(problem);
    return parsed;
  };

  return {
    async append(...entries) {
      if (entries.length === 0) return;
      if (validBytes === undefined) await scan();
      if (dirtyTail) {
        await truncate(path, validBytes).catch(ignoreMissing);
        dirtyTail = false;
      }
      if (!directoryReady) {
        await mkdir(dirname(path), { recursive: true });
        directoryReady = true;
      }
      const text = entries.map((entry) => `${serializeEntry(entry)}\n`).join("");
      try {
        await appendFile(path, text, "utf8");
      } catch (error) {
        // Part of the batch may have reached the file: the next append starts by cutting it off (AG-9).
        dirtyTail = true;
        directoryReady = false;
        throw error;
      }
      validBytes = (validBytes ?? 0) + Buffer.byteLength(text);
    },
    async read() {
      return (await scan()).entries;
    },
    async clear() {
      await unlink(path).catch(ignoreMissing);
      validBytes = 0;
      dirtyTail = false;
    },
    onReport(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

async function readBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isMissing(error)) return Buffer.alloc(0);
    throw error;
  }
}

function parseStream(path: string, bytes: Buffer): ParsedStream {
  const entries: AgentEntry[] = [];
  const problems: string[] = [];
  // One decode and split for the whole file; byte lengths are only needed for the tail that may be cut.
  const lines = bytes.toString("utf8").split("\n");
  const torn = lines.pop() ?? "";
  let tailBytes = 0;
  lines.forEach((text, index) => {
    const entry = parseLine(text);
    if (entry) entries.push(entry);
    else if (index === lines.length - 1 && torn === "") {
      problems.push(`${path}:${index + 1}: unparsable final line ignored; it is cut off before the next append`);
      tailBytes = Buffer.byteLength(text) + 1;
    } else {
      // A corrupt middle line stays in the file: only the tail is ever cut.
      problems.push(`${path}:${index + 1}: corrupt line skipped; not a JSON entry with string id and type`);
    }
  });
  if (torn !== "") {
    problems.push(`${path}:${lines.length + 1}: torn final line ignored; it is cut off before the next append`);
    tailBytes = Buffer.byteLength(torn);
  }
  return { entries, validBytes: bytes.length - tailBytes, fileBytes: bytes.length, problems };
}

function parseLine(text: string): AgentEntry | undefined {
  if (text.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const record = value as Record<string, unknown>;
    return typeof record.id === "string" && typeof record.type === "string" ? (value as AgentEntry) : undefined;
  } catch {
    return undefined;
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";
}

function ignoreMissing(error: unknown): void {
  if (!isMissing(error)) throw error;
}
