import { readdir, stat } from "node:fs/promises";
import type { ResourceFileSystem } from "./file-system.js";
import { openChecked, pathAt, readBounded } from "./host-open.js";
import { MAX_READ_BYTES } from "./limits.js";

/** Chunk size for streamed host reads: large enough to amortise calls, small enough to keep memory flat. */
const CHUNK_BYTES = 1024 * 1024;

/** Internal hook: a file system that can stream raw bytes lets the scanner count without decoding. */
export const readByteChunks: unique symbol = Symbol("ishiki.resources.readByteChunks");

export interface ByteChunkReader {
  [readByteChunks](path: string, signal?: AbortSignal): AsyncIterable<Uint8Array>;
}

/** Internal hook: a listing from one verified directory descriptor, directories suffixed `/`, links followed for their type. */
export const listDirectory: unique symbol = Symbol("ishiki.resources.listDirectory");

export interface DirectoryLister {
  [listDirectory](path: string): Promise<string[]>;
}

export function canListDirectory(filesystem: ResourceFileSystem): filesystem is ResourceFileSystem & DirectoryLister {
  return typeof (filesystem as Partial<DirectoryLister>)[listDirectory] === "function";
}

export function canReadByteChunks(filesystem: ResourceFileSystem): filesystem is ResourceFileSystem & ByteChunkReader {
  return typeof (filesystem as Partial<ByteChunkReader>)[readByteChunks] === "function";
}

async function* chunks(path: string, signal?: AbortSignal): AsyncIterable<Uint8Array> {
  const { handle } = await openChecked(path);
  // Two buffers: the next read runs while the consumer handles the current chunk, which it must finish with
  // before asking for the next one.
  const buffers = [new Uint8Array(CHUNK_BYTES), new Uint8Array(CHUNK_BYTES)];
  let pending: Promise<{ bytesRead: number }> | undefined = handle.read(buffers[0], 0, CHUNK_BYTES, null);
  try {
    for (let current = 0; ; current ^= 1) {
      const { bytesRead } = await pending!;
      pending = undefined;
      if (bytesRead === 0) return;
      signal?.throwIfAborted();
      pending = handle.read(buffers[current ^ 1], 0, CHUNK_BYTES, null);
      yield buffers[current].subarray(0, bytesRead);
    }
  } finally {
    await pending?.catch(() => undefined);
    await handle.close();
  }
}

/**
 * The host file system. Paths must be real paths (as `containPath` returns them): every call opens the path
 * with `openChecked`, so what is read is what was confined, FIFOs and device files are refused without
 * blocking, and whole reads stop at the read limit by bytes actually read. Large files stream in chunks.
 */
export const hostFileSystem: ResourceFileSystem & ByteChunkReader & DirectoryLister = {
  async readFileBuffer(path) {
    const { handle } = await openChecked(path);
    try {
      return await readBounded(handle, MAX_READ_BYTES);
    } finally {
      await handle.close();
    }
  },
  async stat(path) {
    const { handle, info } = await openChecked(path);
    await handle.close();
    return { isFile: info.isFile(), isDirectory: info.isDirectory(), size: info.size, mtimeMs: info.mtimeMs };
  },
  async readdir(path) {
    const { handle } = await openChecked(path, { directory: true });
    try {
      return await readdir(pathAt(handle, ".", path));
    } finally {
      await handle.close();
    }
  },
  async *readText(path, options) {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    for await (const chunk of chunks(path, options?.signal)) yield decoder.decode(chunk, { stream: true });
    const tail = decoder.decode();
    if (tail) yield tail;
  },
  async readFilePrefix(path, maxBytes) {
    const { handle } = await openChecked(path);
    try {
      const buffer = new Uint8Array(maxBytes);
      const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  },
  [readByteChunks]: chunks,
  async [listDirectory](path) {
    const { handle } = await openChecked(path, { directory: true });
    try {
      const entries = (await readdir(pathAt(handle, ".", path), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      // Only the type of a link's target is looked at (no open): a link to a directory lists as one.
      return await Promise.all(
        entries.map(async (entry) => {
          const target = entry.isSymbolicLink() ? await stat(pathAt(handle, entry.name, `${path}/${entry.name}`)).catch(() => undefined) : undefined;
          return entry.isDirectory() || target?.isDirectory() ? `${entry.name}/` : entry.name;
        }),
      );
    } finally {
      await handle.close();
    }
  },
};
