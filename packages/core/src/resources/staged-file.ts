import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { ArtifactContent } from "./resource-store.js";

/** Content written to a temp file and hashed in the same pass, waiting to be given its content-addressed name. */
export interface StagedFile {
  readonly hash: string;
  readonly byteLength: number;
  /** Moves the file to `path` (atomic rename; an existing file is replaced by identical content). */
  commit(path: string): Promise<void>;
  discard(): Promise<void>;
}

// UTF-16 units encoded per chunk; the scratch buffer holds their worst-case UTF-8 size.
const CHUNK_UNITS = 1 << 20;

/**
 * Writes `data` into a temp file in `dir` while hashing it. Strings are encoded chunk by chunk into one scratch
 * buffer: a 50 MB text never exists as a second 50 MB byte copy, and the fresh pages such a copy needs cost more
 * than the encoding itself. Pieces are consumed as they come, so their producer never holds the whole text.
 */
export async function stageFile(dir: string, data: ArtifactContent): Promise<StagedFile> {
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${randomBytes(6).toString("hex")}.tmp`);
  const hash = createHash("sha256");
  let byteLength = 0;
  const file = await open(temp, "w");
  // The write in flight: the next chunk is hashed and encoded while the previous one goes to disk.
  let writing: Promise<void> = Promise.resolve();
  try {
    const write = async (bytes: Uint8Array) => {
      hash.update(bytes);
      byteLength += bytes.length;
      await writing;
      writing = (async () => {
        for (let offset = 0; offset < bytes.length; ) offset += (await file.write(bytes, offset)).bytesWritten;
      })();
      // Handled here so a failure while the next chunk is encoded is not an unhandled rejection; awaiting
      // `writing` later still throws it.
      writing.catch(() => {});
    };
    if (data instanceof Uint8Array) await write(data);
    else {
      // Pieces are encoded one after another into a scratch buffer, which is written out when the next one might
      // not fit: small pieces cost no write each, and no piece is copied into a joined string first. Two buffers
      // take turns, so encoding never waits for the disk unless the disk is behind by a whole buffer.
      const buffers = [new Uint8Array(CHUNK_UNITS * 3), new Uint8Array(CHUNK_UNITS * 3)];
      let scratch = buffers[0];
      const encoder = new TextEncoder();
      let filled = 0;
      const flush = async () => {
        await write(scratch.subarray(0, filled));
        scratch = scratch === buffers[0] ? buffers[1] : buffers[0];
        filled = 0;
      };
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
    }
    await writing;
    await file.close();
  } catch (error) {
    await writing.catch(() => {});
    await file.close().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
  return {
    hash: hash.digest("hex"),
    byteLength,
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
