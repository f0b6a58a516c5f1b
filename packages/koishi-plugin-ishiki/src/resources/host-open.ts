import { constants, existsSync, type Stats } from "node:fs";
import { lstat, open, readlink, realpath, type FileHandle } from "node:fs/promises";

const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW, O_NOCTTY, O_DIRECTORY } = constants;

/** Linux names every open descriptor here; reading the link gives the real path of what was opened. */
const PROC_FD = "/proc/self/fd";
const hasProcFd = existsSync(`${PROC_FD}/0`) || existsSync(PROC_FD);

/** A host file-system failure of ours, coded like Node's (`<CODE>: <reason>`), naming no path. */
export class HostFileError extends Error {
  public override readonly name = "HostFileError";

  public constructor(
    public readonly code: "EACCES" | "ENOTSUP" | "EFBIG",
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** What kind of thing a non-regular file is, for the refusal. */
function kindOf(info: Stats): string {
  if (info.isFIFO()) return "a FIFO";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  if (info.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** Only regular files and directories are ever opened: a FIFO blocks a libuv thread, `/dev/zero` never ends. */
export function refuseSpecial(info: Stats): void {
  if (info.isFile() || info.isDirectory()) return;
  throw new HostFileError("ENOTSUP", `${kindOf(info)} is not a regular file or directory; only those can be read`);
}

/**
 * The path through which `name` inside an open directory is reached, like `openat(2)`: on Linux through
 * `/proc/self/fd/<fd>/`, so a swap of any directory above cannot redirect it; elsewhere `fallback`, the
 * checked path itself.
 */
export function pathAt(directory: FileHandle, name: string, fallback: string): string {
  return hasProcFd ? `${PROC_FD}/${directory.fd}/${name}` : fallback;
}

/** The real path of what a descriptor refers to, or undefined where the platform cannot say. */
export async function descriptorPath(handle: FileHandle): Promise<string | undefined> {
  if (!hasProcFd) return undefined;
  return readlink(`${PROC_FD}/${handle.fd}`);
}

export interface CheckedFile {
  handle: FileHandle;
  info: Stats;
}

export interface OpenCheckedOptions {
  /** Extra `open(2)` flags, e.g. `O_WRONLY`; reading is the default. */
  flags?: number;
  /** Open a directory (`O_DIRECTORY`). */
  directory?: boolean;
}

/**
 * Opens `path`, a real path as `containPath` returns it, so that what is opened is what was checked (RS-22):
 * no component may have become a symlink since (`O_NOFOLLOW` on the last one; on Linux the descriptor's own
 * real path, read from `/proc/self/fd`, must equal `path`; elsewhere its device and inode must equal a fresh
 * `lstat` of the unchanged real path). Anything but a regular file or directory is refused before opening
 * and again on the descriptor; `O_NONBLOCK` keeps a FIFO swapped in between from blocking the open.
 * The caller closes the handle.
 */
export async function openChecked(path: string, options: OpenCheckedOptions = {}): Promise<CheckedFile> {
  const before = await lstat(path);
  // A real path never ends in a link: one there now was swapped in after the check.
  if (before.isSymbolicLink()) throw changed();
  refuseSpecial(before);
  const flags = (options.flags ?? O_RDONLY) | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | (options.directory ? O_DIRECTORY : 0);
  const handle = await open(path, flags);
  try {
    const info = await handle.stat();
    refuseSpecial(info);
    await checkDescriptor(handle, info, path);
    return { handle, info };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Throws unless `handle` refers to `path` itself. */
export async function checkDescriptor(handle: FileHandle, info: Stats, path: string): Promise<void> {
  const actual = await descriptorPath(handle);
  if (actual !== undefined) {
    if (actual !== path) throw changed();
    return;
  }
  const now = await lstat(path).catch(() => undefined);
  if (!now || now.ino !== info.ino || now.dev !== info.dev || (await realpath(path).catch(() => undefined)) !== path) throw changed();
}

function changed(): HostFileError {
  return new HostFileError("EACCES", "the path changed while it was opened (a directory was swapped for a link); nothing was read");
}

/**
 * Reads at most `limit` bytes from an open file, counting bytes actually read (a file may grow, and special
 * files report no size); more than `limit` throws `EFBIG`.
 */
export async function readBounded(handle: FileHandle, limit: number, position: number | null = null): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const buffer = new Uint8Array(Math.min(1024 * 1024, limit + 1 - total));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position === null ? null : position + total);
    if (bytesRead === 0) break;
    parts.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > limit) throw new HostFileError("EFBIG", `the file is larger than ${limit} bytes`);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
