import { isUtf8 } from "node:buffer";
import { appendFile, mkdir, truncate, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { checkEntry, type EntryChecks } from "./entry-check.js";
import { serializeEntry, type AgentEntry } from "./entry.js";
import { checkpointPathOf, cursorOf, readCheckpoint, removeCheckpoint, writeCheckpoint, type JsonlCursor } from "./jsonl-checkpoint.js";
import { codeOf, scanLines, type JsonlLine } from "./jsonl-lines.js";
import { silentLogger, type AgentLogger } from "./logger.js";
import type { AgentStorage } from "./storage.js";

export interface JsonlStorageOptions {
  /** Receives a warning per torn, corrupt or invalid line found while reading (AG-8). */
  logger?: AgentLogger;
  /** Checks for custom entry and message types; built-in types are always checked (AG-7). */
  checks?: EntryChecks;
  /** Bytes read per chunk (1 MiB); the file is never held whole. */
  readChunkBytes?: number;
  /** Longest line read (256 MiB); a longer one is skipped and reported without being buffered. */
  maxLineBytes?: number;
}

const DEFAULT_CHUNK_BYTES = 1 << 20;
const DEFAULT_MAX_LINE_BYTES = 256 << 20;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Problems of lines inside a checkpoint's prefix kept with it; more would make every checkpoint large. */
const MAX_KEPT_REPORTS = 100;

interface ParsedStream {
  /** Byte length of the prefix that ends with the last line kept; anything after it is cut before writing. */
  validBytes: number;
  /** The number of the line that starts at `validBytes`. */
  nextLine: number;
  fileBytes: number;
}

/** Reports a problem; `inPrefix` when its line stays in the file before `validBytes` (a checkpoint keeps those). */
type Report = (message: string, inPrefix: boolean) => void;

/**
 * The events.jsonl storage (AG-5 .. AG-10): UTF-8, one entry per line, each line ending in `\n`, no header.
 * Each `append` is one append write; there is no fsync and no lock, so a crash can lose the last batch but
 * never reorder or split earlier lines. Reads stream the file in bytes: a torn final line (bytes after the
 * last newline, whatever they decode to) or an unparsable final line is ignored and cut off before the next
 * append; a corrupt middle line and an entry that fails its type's check are skipped and stay in the file.
 * Each is reported. A leading UTF-8 byte-order mark is skipped.
 *
 * Checkpoints live in `events.checkpoint.json` beside the file (`checkpointPathOf`): a state saved with the
 * byte length it covers and hashes of that prefix's first and last 4 KiB; a restart that finds the file still
 * beginning so reads only the lines after it, and reports the prefix's problems again.
 */
export function createJsonlStorage(path: string, options: JsonlStorageOptions = {}): AgentStorage {
  const logger = options.logger ?? silentLogger;
  const checks = options.checks ?? {};
  const listeners = new Set<(message: string) => void>();
  // The byte length known to end with an intact line; undefined until the file was scanned once.
  let validBytes: number | undefined;
  let nextLine = 1;
  // Set when bytes past `validBytes` may exist: a torn tail found by a read, or a failed append.
  let dirtyTail = false;
  let directoryReady = false;

  // Each problem is reported once per storage: the stream is read again on demand (compaction, catalogs), and
  // the same damaged line must not warn at every such read.
  const reported = new Set<string>();
  const kept = new Set<string>();
  const report: Report = (message, inPrefix) => {
    if (inPrefix && kept.size < MAX_KEPT_REPORTS) kept.add(message);
    if (reported.has(message)) return;
    reported.add(message);
    logger.warn(message);
    for (const listener of listeners) listener(message);
  };

  const scan = async (visit: (entry: AgentEntry) => void = () => {}, from?: JsonlCursor): Promise<void> => {
    const parsed = await parseStream(path, checks, report, options, visit, from);
    validBytes = parsed.validBytes;
    nextLine = parsed.nextLine;
    dirtyTail = parsed.fileBytes > parsed.validBytes;
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
      nextLine += entries.length;
    },
    async read() {
      const entries: AgentEntry[] = [];
      await scan((entry) => entries.push(entry));
      return entries;
    },
    scan: (visit) => scan(visit),
    async clear() {
      await removeCheckpoint(path);
      await unlink(path).catch(ignoreMissing);
      validBytes = 0;
      nextLine = 1;
      dirtyTail = false;
      reported.clear();
      kept.clear();
    },
    checkpoints: {
      async save(state) {
        if (validBytes === undefined || validBytes === 0) return;
        const cursor = await cursorOf(path, validBytes, nextLine);
        if (cursor !== undefined) await writeCheckpoint(path, { cursor, reports: [...kept], state });
      },
      async load() {
        const found = await readCheckpoint(path);
        if (found === undefined) return undefined;
        if ("reason" in found) {
          logger.info(`${checkpointPathOf(path)} ${found.reason}; reading the whole stream`);
          return undefined;
        }
        const { cursor, reports, state } = found.checkpoint;
        return {
          state,
          async resume(visit) {
            for (const message of reports) report(message, true);
            await scan(visit, cursor);
          },
        };
      },
    },
    onReport(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * One streamed pass over the file. A corrupt complete line is reported once the next non-blank line shows it
 * was not the final one; a final one is cut with the blank lines after it.
 */
async function parseStream(
  path: string,
  checks: EntryChecks,
  report: Report,
  options: JsonlStorageOptions,
  visit: (entry: AgentEntry) => void,
  from?: JsonlCursor,
): Promise<ParsedStream> {
  let pending: { number: number; start: number; reason: string } | undefined;
  const flushPending = (): void => {
    if (pending) report(`${path}:${pending.number}: corrupt line skipped; ${pending.reason}`, true);
    pending = undefined;
  };
  const corrupt = (number: number, start: number, reason: string): void => {
    flushPending();
    pending = { number, start, reason };
  };
  const onLine = ({ bytes, number, start }: JsonlLine): void => {
    const body = number === 1 && bytes.subarray(0, 3).equals(BOM) ? bytes.subarray(3) : bytes;
    if (isBlank(body)) return;
    const valid = isUtf8(body);
    const record = parseRecord(body.toString("utf8"));
    if (record === undefined) return corrupt(number, start, "not a JSON entry with string id and type");
    flushPending();
    let problem: string | undefined;
    try {
      problem = checkEntry(record, checks);
    } catch (error) {
      problem = `its check threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (problem !== undefined) return report(`${path}:${number}: invalid entry skipped; ${problem}`, true);
    if (!valid) report(`${path}:${number}: invalid UTF-8 bytes read as U+FFFD`, true);
    visit(record as unknown as AgentEntry);
  };
  const result = await scanLines(path, onLine, {
    chunkBytes: options.readChunkBytes ?? DEFAULT_CHUNK_BYTES,
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    overlong: (number, start) => corrupt(number, start, `longer than ${options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES} bytes`),
    ...(from === undefined ? {} : { from: { position: from.bytes, number: from.line } }),
  });
  if (result.torn) {
    flushPending();
    report(`${path}:${result.torn.number}: torn final line ignored; it is cut off before the next append`, false);
    return { validBytes: result.torn.start, nextLine: result.torn.number, fileBytes: result.fileBytes };
  }
  if (pending) {
    const { number, start } = pending;
    pending = undefined;
    report(`${path}:${number}: unparsable final line ignored; it is cut off before the next append`, false);
    return { validBytes: start, nextLine: number, fileBytes: result.fileBytes };
  }
  return { validBytes: result.fileBytes, nextLine: result.nextLine, fileBytes: result.fileBytes };
}

/** Only spaces, tabs and carriage returns (a CRLF file's empty line). */
function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

function parseRecord(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const record = value as Record<string, unknown>;
    return typeof record.id === "string" && typeof record.type === "string" ? record : undefined;
  } catch {
    return undefined;
  }
}

function ignoreMissing(error: unknown): void {
  if (codeOf(error) !== "ENOENT") throw error;
}
