import { Buffer } from "node:buffer";
import { randomUUID } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { link, lstat, mkdir, open, readdir, readlink, rename, rm, rmdir, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from "node:path";
import { unsafeBytesFromLatin1 } from "just-bash";
import type { BufferEncoding, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from "just-bash";
import { checkDescriptor, containPath, HostFileError, openChecked, pathAt, readBounded, refuseSpecial, ResourceError, systemErrorText } from "koishi-plugin-ishiki";
import type { ByteQuota } from "./byte-quota.js";
import { FsError, notFound, readOnly, type DirentEntry } from "./fs-error.js";

/** Largest file a shell command may read whole from a host mount. */
const MAX_FILE_READ_BYTES = 64 * 1024 * 1024;
const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
/** Opening for writing never follows a link, never blocks on a FIFO and never takes a terminal. */
const WRITE_FLAGS = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

export interface HostFsOptions {
  /** The mounted host directory; must already be a real path (`realpath` of the source). */
  root: string;
  /** Where the mount appears in the sandbox, for error messages. */
  target: string;
  readOnly: boolean;
  /** Top-level names that do not exist as far as the sandbox can tell (not listed, `ENOENT`). */
  hidden?: readonly string[];
  /** The workspace's byte budget that writes through this mount draw on. */
  quota?: ByteQuota;
}

type Encoding = { encoding?: BufferEncoding | null } | BufferEncoding | undefined;

function encodingOf(options: Encoding): "utf8" | "ascii" | "latin1" | "base64" | "hex" {
  const name = typeof options === "string" ? options : (options?.encoding ?? "utf8");
  if (name === "utf-8" || name === "utf8") return "utf8";
  return name === "binary" ? "latin1" : name;
}

function bytesOf(content: FileContent, options: Encoding): Uint8Array {
  return typeof content === "string" ? Buffer.from(content, encodingOf(options)) : content;
}

function fsStat(info: Stats): FsStat {
  return {
    isFile: info.isFile(),
    isDirectory: info.isDirectory(),
    isSymbolicLink: info.isSymbolicLink(),
    mode: info.mode,
    size: info.size,
    mtime: info.mtime,
    dev: info.dev,
    ino: info.ino,
  };
}

async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number | null): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position === null ? null : position + done);
    done += bytesWritten;
  }
}

/**
 * A host directory mounted into the sandbox (WS-6, WS-7, issue 16). Every path is resolved with `realpath`
 * (for new paths, through the deepest existing ancestor) and must stay in the root, or the call fails
 * `EACCES: path escapes mount <target>`. What is then touched is what was checked: files and directories are
 * opened with `openChecked` (no link followed, the descriptor's real path verified), and names are created,
 * removed or renamed through a verified descriptor of their parent directory (`/proc/self/fd/<fd>/<name>`, like
 * the `*at` system calls), so a directory swapped for a symlink meanwhile leads nowhere. FIFOs and devices are
 * refused without blocking; whole reads stop at 64 MiB by bytes read; writes draw on the workspace quota.
 * Symlinks cannot be created; read-only mounts refuse every change with `EROFS`. Error texts name sandbox
 * paths only.
 */
export class HostFs implements IFileSystem {
  private readonly hidden: ReadonlySet<string>;

  public constructor(private readonly options: HostFsOptions) {
    this.hidden = new Set(options.hidden ?? []);
  }

  /** The sandbox path of a path inside this mount. */
  public virtualPath(path: string): string {
    const inside = posix.normalize(`/${path}`);
    return inside === "/" ? this.options.target : posix.join(this.options.target, inside);
  }

  /** The sandbox path of a real host path under the root. */
  private virtualOfReal(real: string): string {
    return this.virtualPath(relative(this.options.root, real).split(sep).join("/"));
  }

  /** The confined real host path of a path inside this mount, or the `EACCES`/`ENOENT` error. */
  public async contain(path: string): Promise<string> {
    if (path.includes("\0")) throw new FsError("EINVAL", `EINVAL: NUL is not allowed in a path: ${this.virtualPath(path.replaceAll("\0", "\\0"))}`);
    const inside = posix.normalize(`/${path}`);
    if (this.isHidden(inside)) throw notFound(this.virtualPath(inside));
    let real: string;
    try {
      real = await containPath(this.options.root, join(this.options.root, ...inside.split("/")));
    } catch (error) {
      if (error instanceof ResourceError) throw new FsError("EACCES", `EACCES: path escapes mount ${this.options.target}`);
      throw this.failure(error, inside, "realpath");
    }
    if (this.isHidden(`/${relative(this.options.root, real).split(sep).join("/")}`)) throw notFound(this.virtualPath(inside));
    return real;
  }

  private isHidden(inside: string): boolean {
    return this.hidden.has(inside.split("/")[1] ?? "");
  }

  /** The model-facing error for a failed host call: `<CODE>: <reason>, <op> '<sandbox path>'`, no host path. */
  private failure(error: unknown, path: string, op: string): unknown {
    if (error instanceof FsError) return error;
    const text = error instanceof HostFileError ? error.message : systemErrorText(error);
    if (text === undefined) return error;
    return new FsError((error as { code: string }).code, `${text}, ${op} '${this.virtualPath(path)}'`);
  }

  private async guard<T>(path: string, op: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw this.failure(error, path, op);
    }
  }

  private writable(path: string): void {
    if (this.options.readOnly) throw readOnly(this.virtualPath(path));
  }

  /**
   * Runs `action` with the name `real` (a confined real path, not the root) reached through a verified
   * descriptor of its parent directory.
   */
  private async atReal<T>(real: string, action: (at: string, dir: FileHandle) => Promise<T>): Promise<T> {
    if (real === this.options.root) throw new FsError("EBUSY", `EBUSY: the mount point ${this.options.target} itself cannot be changed`);
    const { handle } = await openChecked(dirname(real), { directory: true });
    try {
      return await action(pathAt(handle, basename(real), real), handle);
    } finally {
      await handle.close();
    }
  }

  /** Like {@link atReal} for the entry `path` names itself, a final symlink not followed. */
  private async atEntry<T>(path: string, action: (at: string, real: string) => Promise<T>): Promise<T> {
    const inside = posix.normalize(`/${path}`);
    if (this.isHidden(inside)) throw notFound(this.virtualPath(inside));
    const parent = await this.contain(posix.dirname(inside));
    const real = inside === "/" ? this.options.root : join(parent, posix.basename(inside));
    return this.atReal(real, (at) => action(at, real));
  }

  private async withFile<T>(path: string, action: (handle: FileHandle, real: string) => Promise<T>, directory = false): Promise<T> {
    const real = await this.contain(path);
    const { handle } = await openChecked(real, { directory });
    try {
      return await action(handle, real);
    } finally {
      await handle.close();
    }
  }

  private async lstatReal(real: string): Promise<Stats> {
    return real === this.options.root ? lstat(real) : this.atReal(real, (at) => lstat(at));
  }

  public async readFileBuffer(path: string): Promise<Uint8Array> {
    return this.guard(path, "open", () => this.withFile(path, (handle) => readBounded(handle, MAX_FILE_READ_BYTES)));
  }

  public async readFile(path: string, options?: Encoding): Promise<string> {
    return Buffer.from(await this.readFileBuffer(path)).toString(encodingOf(options));
  }

  public async readFileBytes(path: string) {
    return unsafeBytesFromLatin1(Buffer.from(await this.readFileBuffer(path)).toString("latin1"));
  }

  /** Writes (or appends) `bytes` to the file `path` names, created if missing. */
  private async put(path: string, bytes: Uint8Array, append: boolean): Promise<void> {
    this.writable(path);
    const real = await this.contain(path);
    const virtual = this.virtualOfReal(real);
    await this.atReal(real, async (at, dir) => {
      // Refused before anything is created: a FIFO, a device, a directory; and a write over the quota.
      const before = await lstat(at).catch((error: unknown) => {
        if ((error as { code?: unknown }).code === "ENOENT") return undefined;
        throw error;
      });
      if (before) refuseSpecial(before);
      if (before?.isDirectory()) throw new FsError("EISDIR", `EISDIR: illegal operation on a directory, write '${virtual}'`);
      const replace = before !== undefined && before.nlink > 1;
      const size = before?.size ?? 0;
      const growth = replace ? (append ? size : 0) + bytes.length : append ? bytes.length : bytes.length - size;
      await this.options.quota?.reserve(growth, virtual);
      try {
        if (replace) await this.replace(path, real, at, dir, bytes, append, before.mode);
        else await this.writeInPlace(real, at, bytes, append, virtual);
      } catch (error) {
        await this.options.quota?.give(growth);
        throw error;
      }
    });
  }

  private async writeInPlace(real: string, at: string, bytes: Uint8Array, append: boolean, virtual: string): Promise<void> {
    const handle = await open(at, WRITE_FLAGS | (append ? O_APPEND : 0), 0o644);
    try {
      const info = await handle.stat();
      refuseSpecial(info);
      if (info.isDirectory()) throw new FsError("EISDIR", `EISDIR: illegal operation on a directory, write '${virtual}'`);
      await checkDescriptor(handle, info, real);
      if (!append) await handle.truncate(0);
      await writeAll(handle, bytes, append ? null : 0);
    } finally {
      await handle.close();
    }
  }

  /** A file with other hard links is replaced, not written through: a link planted on the host may lead out. */
  private async replace(path: string, real: string, at: string, dir: FileHandle, bytes: Uint8Array, append: boolean, mode: number): Promise<void> {
    const kept = append ? await this.readFileBuffer(path) : new Uint8Array(0);
    const temp = `.ishiki-write-${randomUUID()}`;
    const tempAt = pathAt(dir, temp, join(dirname(real), temp));
    const copy = await open(tempAt, WRITE_FLAGS | O_EXCL, mode & 0o777);
    try {
      await writeAll(copy, kept, 0);
      await writeAll(copy, bytes, kept.length);
    } finally {
      await copy.close();
    }
    await rename(tempAt, at);
  }

  public async writeFile(path: string, content: FileContent, options?: Encoding): Promise<void> {
    const bytes = bytesOf(content, options);
    await this.guard(path, "open", () => this.put(path, bytes, false));
  }

  public async appendFile(path: string, content: FileContent, options?: Encoding): Promise<void> {
    const bytes = bytesOf(content, options);
    await this.guard(path, "open", () => this.put(path, bytes, true));
  }

  public async exists(path: string): Promise<boolean> {
    return this.stat(path).then(
      () => true,
      () => false,
    );
  }

  public async stat(path: string): Promise<FsStat> {
    return this.guard(path, "stat", async () => this.traversable(fsStat(await this.lstatReal(await this.contain(path)))));
  }

  public async lstat(path: string): Promise<FsStat> {
    return this.guard(path, "lstat", async () => {
      if (posix.normalize(`/${path}`) === "/") return this.traversable(fsStat(await lstat(this.options.root)));
      return this.traversable(fsStat(await this.atEntry(path, (at) => lstat(at))));
    });
  }

  /** WS-5: WASM runtimes (python3, js-exec) only enter directories whose mode says they may. */
  private traversable(info: FsStat): FsStat {
    if (this.options.readOnly || !info.isDirectory) return info;
    return { ...info, mode: info.mode | 0o111 };
  }

  public async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    this.writable(path);
    await this.guard(path, "mkdir", async () => {
      if (!options?.recursive) return void (await this.atEntry(path, (at) => mkdir(at, 0o755)));
      const parts = posix.normalize(`/${path}`).split("/").filter(Boolean);
      for (let i = 1; i <= parts.length; i++) {
        const prefix = `/${parts.slice(0, i).join("/")}`;
        const info = await this.stat(prefix).catch((error: unknown) => {
          if ((error as { code?: unknown }).code === "ENOENT") return undefined;
          throw error;
        });
        if (info && !info.isDirectory) throw new FsError("ENOTDIR", `ENOTDIR: not a directory, mkdir '${this.virtualPath(prefix)}'`);
        if (!info) await this.atEntry(prefix, (at) => mkdir(at, 0o755)).catch((error: unknown) => {
          if ((error as { code?: unknown }).code !== "EEXIST") throw error;
        });
      }
    });
  }

  private async listing<T>(path: string, read: (at: string) => Promise<T[]>, name: (entry: T) => string): Promise<T[]> {
    const entries = await this.guard(path, "scandir", () => this.withFile(path, (handle, real) => read(pathAt(handle, ".", real)), true));
    if (posix.normalize(`/${path}`) !== "/" || this.hidden.size === 0) return entries;
    return entries.filter((entry) => !this.hidden.has(name(entry)));
  }

  public async readdir(path: string): Promise<string[]> {
    return this.listing(path, (at) => readdir(at), (entry) => entry);
  }

  public async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    const entries = await this.listing(path, (at) => readdir(at, { withFileTypes: true }), (entry) => entry.name);
    return entries.map((entry) => ({ name: entry.name, isFile: entry.isFile(), isDirectory: entry.isDirectory(), isSymbolicLink: entry.isSymbolicLink() }));
  }

  public async rm(path: string, options?: RmOptions): Promise<void> {
    this.writable(path);
    await this.guard(path, "rm", () =>
      this.atEntry(path, async (at) => {
        const info = await lstat(at).catch((error: unknown) => {
          if ((error as { code?: unknown }).code === "ENOENT" && options?.force) return undefined;
          throw error;
        });
        if (!info) return;
        if (!info.isDirectory()) {
          await unlink(at);
          if (info.nlink <= 1) await this.options.quota?.give(info.size);
          return;
        }
        if (!options?.recursive) return rmdir(at);
        // Node's recursive rm walks below the verified descriptor and removes links instead of following them.
        await rm(at, { recursive: true, force: true });
        // The removed tree was not walked first: the quota counts the disk again at the next change.
        this.options.quota?.forget();
      }),
    );
  }

  public async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    const info = await this.stat(src);
    if (!info.isDirectory) return this.writeFile(dest, await this.readFileBuffer(src));
    if (!options?.recursive) throw new FsError("EISDIR", `EISDIR: is a directory, cp '${this.virtualPath(src)}'`);
    const from = posix.normalize(`/${src}`);
    const to = posix.normalize(`/${dest}`);
    if (to === from || to.startsWith(`${from}/`)) throw new FsError("EINVAL", `EINVAL: cannot copy '${this.virtualPath(src)}' into itself`);
    await this.mkdir(to, { recursive: true });
    for (const name of await this.readdir(from)) await this.cp(posix.join(from, name), posix.join(to, name), options);
  }

  public async mv(src: string, dest: string): Promise<void> {
    this.writable(src);
    this.writable(dest);
    await this.guard(src, "rename", () => this.atEntry(src, (from) => this.atEntry(dest, (to) => rename(from, to))));
  }

  public resolvePath(base: string, path: string): string {
    return posix.resolve(base, path);
  }

  public getAllPaths(): string[] {
    return [];
  }

  public async chmod(path: string, mode: number): Promise<void> {
    this.writable(path);
    await this.guard(path, "chmod", () => this.withFile(path, (handle) => handle.chmod(mode)));
  }

  public async symlink(_target: string, _linkPath: string): Promise<void> {
    throw new FsError("ENOTSUP", "ENOTSUP: symlinks are not supported in host mounts");
  }

  public async link(existingPath: string, newPath: string): Promise<void> {
    this.writable(newPath);
    await this.guard(existingPath, "link", async () => {
      const real = await this.contain(existingPath);
      const info = await this.lstatReal(real);
      if (!info.isFile()) throw new FsError("EPERM", `EPERM: operation not permitted, link '${this.virtualPath(existingPath)}'`);
      await this.atReal(real, (from) => this.atEntry(newPath, (to) => link(from, to)));
    });
  }

  public async readlink(path: string): Promise<string> {
    return this.guard(path, "readlink", () =>
      this.atEntry(path, async (at, real) => {
        const target = await readlink(at);
        const resolved = isAbsolute(target) ? target : resolve(dirname(real), target);
        const root = this.options.root;
        if (resolved !== root && !resolved.startsWith(root + sep)) return basename(target);
        return isAbsolute(target) ? this.virtualOfReal(resolved) : target;
      }),
    );
  }

  public async realpath(path: string): Promise<string> {
    return this.guard(path, "realpath", async () => {
      const real = await this.contain(path);
      await this.lstatReal(real);
      return this.virtualOfReal(real);
    });
  }

  public async utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    this.writable(path);
    await this.guard(path, "utimes", () => this.withFile(path, (handle) => handle.utimes(atime, mtime)));
  }
}
