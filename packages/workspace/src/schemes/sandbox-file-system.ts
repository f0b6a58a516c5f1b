import { openChecked, ResourceError } from "koishi-plugin-ishiki";
import type { ResourceFileSystem } from "koishi-plugin-ishiki";
import { errorCode, FsError } from "../fs/fs-error.js";
import type { Sandbox } from "../sandbox.js";

const CHUNK_BYTES = 1024 * 1024;

/** Gives every failure a `code`, so the FileScheme reports a missing file as `resource_not_found`. */
async function coded<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") throw new FsError(code, error instanceof Error ? error.message : String(error));
    if (code === "EACCES" || code === "EINVAL") throw new ResourceError("invalid_resource_uri", (error as Error).message.split("\n")[0]);
    throw error;
  }
}

/** Streams a confined real host path, opened checked: a FIFO, a device or a swapped directory is refused. */
async function* hostChunks(path: string, signal?: AbortSignal): AsyncIterable<string> {
  const { handle } = await openChecked(path);
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  try {
    const buffer = new Uint8Array(CHUNK_BYTES);
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      yield decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
    }
    const tail = decoder.decode();
    if (tail) yield tail;
  } finally {
    await handle.close();
  }
}

/**
 * The sandbox file system as `workspace://` reads it (WS-21): the same view `cat` has. Files behind host mounts
 * are streamed from their confined real path, so paging a large file never loads it whole.
 */
export function sandboxFileSystem(sandbox: Sandbox): ResourceFileSystem {
  return {
    readFileBuffer: (path) => coded(async () => (await sandbox.fs()).readFileBuffer(path)),
    stat: (path) =>
      coded(async () => {
        const info = await (await sandbox.fs()).stat(path);
        return { isFile: info.isFile, isDirectory: info.isDirectory, size: info.size, mtimeMs: info.mtime.getTime() };
      }),
    readdir: (path) => coded(async () => (await sandbox.fs()).readdir(path)),
    async *readText(path, options) {
      const host = await coded(() => sandbox.locate(path));
      if (host !== undefined) {
        yield* hostChunks(host, options?.signal);
        return;
      }
      yield new TextDecoder("utf-8", { ignoreBOM: true }).decode(await coded(async () => (await sandbox.fs()).readFileBuffer(path)));
    },
    readFilePrefix: (path, maxBytes) =>
      coded(async () => {
        const host = await sandbox.locate(path);
        if (host === undefined) return (await (await sandbox.fs()).readFileBuffer(path)).subarray(0, maxBytes);
        const { handle } = await openChecked(host);
        try {
          const buffer = new Uint8Array(maxBytes);
          const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
          return buffer.subarray(0, bytesRead);
        } finally {
          await handle.close();
        }
      }),
  };
}
