import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ArtifactContent } from "./resource-store.js";
import { openStageJob } from "./stage-worker.js";

/** Content written to a temp file and hashed in the same pass, waiting to be given its content-addressed name. */
export interface StagedFile {
  readonly hash: string;
  readonly byteLength: number;
  /** Moves the file to `path` (atomic rename; an existing file is replaced by identical content). */
  commit(path: string): Promise<void>;
  discard(): Promise<void>;
}

// UTF-16 units encoded per chunk; a chunk buffer holds their worst-case UTF-8 size.
const CHUNK_UNITS = 1 << 20;

/** Bytes already in memory: hashed and written on this thread. */
async function stageBytes(temp: string, bytes: Uint8Array): Promise<{ hash: string; byteLength: number }> {
  const file = await open(temp, "w");
  try {
    for (let offset = 0; offset < bytes.length; ) offset += (await file.write(bytes, offset)).bytesWritten;
  } finally {
    await file.close();
  }
  return { hash: createHash("sha256").update(bytes).digest("hex"), byteLength: bytes.length };
}

/**
 * Text, whole or in pieces: encoded here into two shared buffers that take turns, hashed and written on the
 * staging worker. A 50 MB text never exists as a second 50 MB byte copy, its producer never holds it whole, and
 * the host thread only encodes while the worker hashes and writes the previous buffer.
 */
async function stageText(temp: string, data: string | Iterable<string>): Promise<{ hash: string; byteLength: number }> {
  const job = await openStageJob(temp);
  const buffers = [new SharedArrayBuffer(CHUNK_UNITS * 3), new SharedArrayBuffer(CHUNK_UNITS * 3)];
  const encoder = new TextEncoder();
  let current = 0;
  let scratch = new Uint8Array(buffers[current]);
  let filled = 0;
  // The buffer in flight; the other one is free once it is acknowledged.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    await writing;
    writing = job.chunk(buffers[current], filled);
    // Handled here so a failure while the next buffer is filled is not an unhandled rejection.
    writing.catch(() => {});
    current = 1 - current;
    scratch = new Uint8Array(buffers[current]);
    filled = 0;
  };
  try {
    for (const piece of typeof data === "string" ? [data] : data) {
      for (let start = 0; start < piece.length; ) {
        let end = Math.min(start + CHUNK_UNITS, piece.length);
        // Never split a surrogate pair between two chunks: each half alone would encode as U+FFFD.
        const last = piece.charCodeAt(end - 1);
        if (end < piece.length && last >= 0xd800 && last <= 0xdbff) end--;
        if (scratch.length - filled < (end - start) * 3) await flush();
        filled += encoder.encodeInto(end - start === piece.length ? piece : piece.slice(start, end), scratch.subarray(filled)).written;
        start = end;
      }
    }
    await flush();
    await writing;
    return await job.close();
  } catch (error) {
    await writing.catch(() => {});
    await job.abort();
    throw error;
  }
}

/**
 * Writes `data` into a temp file in `dir` while hashing it. Pieces are consumed as they come; a piece must not
 * split a surrogate pair with the next one.
 */
export async function stageFile(dir: string, data: ArtifactContent): Promise<StagedFile> {
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${randomBytes(6).toString("hex")}.tmp`);
  let staged: { hash: string; byteLength: number };
  try {
    staged = data instanceof Uint8Array ? await stageBytes(temp, data) : await stageText(temp, data);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return {
    ...staged,
    async commit(path) {
      try {
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    discard: () => rm(temp, { force: true }),
  };
}
