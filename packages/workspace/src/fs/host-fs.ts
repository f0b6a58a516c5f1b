import { join, posix, relative, sep } from "node:path";
import { ReadWriteFs } from "just-bash";
import type { BufferEncoding, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from "just-bash";
import { containPath, ResourceError } from "koishi-plugin-ishiki";
import { FsError, notFound, readOnly, type DirentEntry } from "./fs-error.js";

/** Largest file a shell command may read whole from a host mount. */
const MAX_FILE_READ_BYTES = 64 * 1024 * 1024;

export interface HostFsOptions {
  /** The mounted host directory; must already be a real path (`realpath` of the source). */
  root: string;
  /** Where the mount appears in the sandbox, for error messages. */
  target: string;
  readOnly: boolean;
  /** Top-level names that do not exist as far as the sandbox can tell (not listed, `ENOENT`). */
  hidden?: readonly string[];
}

/**
 * A host directory mounted into the sandbox (WS-6, WS-7). Before any operation reaches the disk, the host path
 * is resolved with `realpath` (for new paths, through the deepest existing ancestor) and must be the root or
 * below it, or the call fails `EACCES: path escapes mount <target>`: symlinks that point outside are never
 * followed, whatever the operation. Symlinks cannot be created; read-only mounts refuse every change with
 * `EROFS`. just-bash's `ReadWriteFs` does the I/O behind these checks and adds its own as a second layer.
 */
export class HostFs implements IFileSystem {
  private readonly inner: ReadWriteFs;
  private readonly hidden: ReadonlySet<string>;

  public constructor(private readonly options: HostFsOptions) {
    this.inner = new ReadWriteFs({ root: options.root, allowSymlinks: true, maxFileReadSize: MAX_FILE_READ_BYTES });
    this.hidden = new Set(options.hidden ?? []);
  }

  /** The sandbox path of a path inside this mount. */
  public virtualPath(path: string): string {
    const inside = posix.normalize(`/${path}`);
    return inside === "/" ? this.options.target : posix.join(this.options.target, inside);
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
      throw error;
    }
    if (this.isHidden(`/${relative(this.options.root, real).split(sep).join("/")}`)) throw notFound(this.virtualPath(inside));
    return real;
  }

  private isHidden(inside: string): boolean {
    return this.hidden.has(inside.split("/")[1] ?? "");
  }

  private async writable(path: string): Promise<void> {
    if (this.options.readOnly) throw readOnly(this.virtualPath(path));
    await this.contain(path);
  }

  public async readFile(path: string, options?: { encoding?: BufferEncoding | null } | BufferEncoding): Promise<string> {
    await this.contain(path);
    return this.inner.readFile(path, options);
  }

  public async readFileBytes(path: string) {
    await this.contain(path);
    return this.inner.readFileBytes(path);
  }

  public async readFileBuffer(path: string): Promise<Uint8Array> {
    await this.contain(path);
    return this.inner.readFileBuffer(path);
  }

  public async writeFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void> {
    await this.writable(path);
    return this.inner.writeFile(path, content, options);
  }

  public async appendFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void> {
    await this.writable(path);
    return this.inner.appendFile(path, content, options);
  }

  public async exists(path: string): Promise<boolean> {
    try {
      await this.contain(path);
    } catch {
      return false;
    }
    return this.inner.exists(path);
  }

  public async stat(path: string): Promise<FsStat> {
    await this.contain(path);
    return this.traversable(await this.inner.stat(path));
  }

  public async lstat(path: string): Promise<FsStat> {
    await this.contain(path);
    return this.traversable(await this.inner.lstat(path));
  }

  /** WS-5: WASM runtimes (python3, js-exec) only enter directories whose mode says they may. */
  private traversable(info: FsStat): FsStat {
    if (this.options.readOnly || !info.isDirectory) return info;
    return { ...info, mode: info.mode | 0o111 };
  }

  public async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    await this.writable(path);
    return this.inner.mkdir(path, options);
  }

  public async readdir(path: string): Promise<string[]> {
    await this.contain(path);
    return this.visible(path, await this.inner.readdir(path), (name) => name);
  }

  public async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    await this.contain(path);
    return this.visible(path, await this.inner.readdirWithFileTypes(path), (entry) => entry.name);
  }

  private visible<T>(path: string, entries: T[], name: (entry: T) => string): T[] {
    if (posix.normalize(`/${path}`) !== "/" || this.hidden.size === 0) return entries;
    return entries.filter((entry) => !this.hidden.has(name(entry)));
  }

  public async rm(path: string, options?: RmOptions): Promise<void> {
    await this.writable(path);
    return this.inner.rm(path, options);
  }

  public async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    await this.contain(src);
    await this.writable(dest);
    return this.inner.cp(src, dest, options);
  }

  public async mv(src: string, dest: string): Promise<void> {
    await this.writable(src);
    await this.writable(dest);
    return this.inner.mv(src, dest);
  }

  public resolvePath(base: string, path: string): string {
    return this.inner.resolvePath(base, path);
  }

  public getAllPaths(): string[] {
    return [];
  }

  public async chmod(path: string, mode: number): Promise<void> {
    await this.writable(path);
    return this.inner.chmod(path, mode);
  }

  public async symlink(_target: string, _linkPath: string): Promise<void> {
    throw new FsError("ENOTSUP", "ENOTSUP: symlinks are not supported in host mounts");
  }

  public async link(existingPath: string, newPath: string): Promise<void> {
    await this.contain(existingPath);
    await this.writable(newPath);
    return this.inner.link(existingPath, newPath);
  }

  public async readlink(path: string): Promise<string> {
    await this.contain(path);
    return this.inner.readlink(path);
  }

  public async realpath(path: string): Promise<string> {
    await this.contain(path);
    return this.inner.realpath(path);
  }

  public async utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    await this.writable(path);
    return this.inner.utimes(path, atime, mtime);
  }
}
