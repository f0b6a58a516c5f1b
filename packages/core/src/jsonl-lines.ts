import { open, type FileHandle } from "node:fs/promises";

/** One complete line of the file: its bytes without the newline, 1-based number and byte offset. */
export interface JsonlLine {
  /** Valid only during the callback: the buffer is reused for the next chunk. */
  bytes: Buffer;
  number: number;
  start: number;
}

export interface LineScanResult {
  fileBytes: number;
  /** The number of the line after the last complete one. */
  nextLine: number;
  /** Where the bytes after the last newline start, when there are any (a torn final line). */
  torn?: { number: number; start: number };
}

export interface LineScanOptions {
  /** Bytes read per `read` call. */
  chunkBytes: number;
  /** A longer line is reported through `overlong` instead of being buffered, so memory stays bounded. */
  maxLineBytes: number;
  overlong(number: number, start: number): void;
  /** Where to start: a byte offset just after a newline and the number of the line there (a checkpoint's cursor). */
  from?: { position: number; number: number };
}

const NEWLINE = 0x0a;

/**
 * Reads `path` chunk by chunk and calls `onLine` for every newline-terminated line, so a file of any size is
 * read with memory bounded by the chunk and the longest line, never as one string (V8 caps strings at ~512 MiB).
 * Offsets are counted in bytes of the file, never in decoded characters. A missing file has no lines. Errors name
 * the path (`EISDIR ... read` alone does not).
 */
export async function scanLines(path: string, onLine: (line: JsonlLine) => void, options: LineScanOptions): Promise<LineScanResult> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return { fileBytes: 0, nextLine: 1 };
    throw readError(path, error);
  }
  try {
    return await scanHandle(handle, onLine, options);
  } catch (error) {
    throw readError(path, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function scanHandle(handle: FileHandle, onLine: (line: JsonlLine) => void, options: LineScanOptions): Promise<LineScanResult> {
  const chunk = Buffer.allocUnsafe(options.chunkBytes);
  // The part of the current line read in earlier chunks; dropped (and `skipping` set) once it is overlong.
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let skipping = false;
  let position = options.from?.position ?? 0;
  let number = options.from?.number ?? 1;
  let lineStart = position;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    const view = chunk.subarray(0, bytesRead);
    let from = 0;
    while (from < bytesRead) {
      const newline = view.indexOf(NEWLINE, from);
      const end = newline === -1 ? bytesRead : newline;
      const piece = view.subarray(from, end);
      if (!skipping && carryBytes + piece.length > options.maxLineBytes) {
        skipping = true;
        carry = [];
        carryBytes = 0;
      }
      if (newline === -1) {
        if (!skipping) {
          carry.push(Buffer.from(piece));
          carryBytes += piece.length;
        }
        break;
      }
      if (skipping) options.overlong(number, lineStart);
      else onLine({ bytes: carry.length === 0 ? piece : Buffer.concat([...carry, piece]), number, start: lineStart });
      carry = [];
      carryBytes = 0;
      skipping = false;
      number += 1;
      lineStart = position + newline + 1;
      from = newline + 1;
    }
    position += bytesRead;
  }
  return position > lineStart ? { fileBytes: position, nextLine: number, torn: { number, start: lineStart } } : { fileBytes: position, nextLine: number };
}

function readError(path: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  const wrapped = new Error(`cannot read ${path}: ${reason}`, { cause: error });
  const code = codeOf(error);
  if (code !== undefined) Object.assign(wrapped, { code });
  return wrapped;
}

export function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}
