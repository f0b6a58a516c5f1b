import { stat } from "node:fs/promises";
import { Buffer } from "node:buffer";
import { posix } from "node:path";
import { DefenseInDepthBox } from "just-bash";
import type { BufferEncoding, FsStat, IFileSystem } from "just-bash";
import type { ResourceCenter } from "koishi-plugin-ishiki";
import { FsError, notFound, readOnly, type DirentEntry } from "./fs-error.js";

type Node =
  | { kind: "root" }
  | { kind: "assets" }
  | { kind: "asset"; id: string }
  | { kind: "artifacts" }
  | { kind: "namespace"; namespace: string }
  | { kind: "artifact"; namespace: string; name: string };

const EPOCH = new Date(0);

/**
 * `/home/.ishiki` (WS-23): the runtime's stored resources as read-only files, `assets/<id>` and
 * `artifacts/<tool>/<name>`. Reading a file goes through the ResourceCenter exactly as `read` does (an asset
 * may be fetched then), so the bytes are `read`'s; `stat` and `readdir` look only at the store and never fetch.
 */
export class ResourceFs implements IFileSystem {
  public constructor(
    private readonly resources: ResourceCenter,
    private readonly target: string,
  ) {}

  private virtualPath(path: string): string {
    return posix.join(this.target, posix.normalize(`/${path}`));
  }

  private async node(path: string): Promise<Node> {
    const parts = posix.normalize(`/${path}`).split("/").filter(Boolean);
    const store = this.resources.store;
    const missing = (): never => {
      throw notFound(this.virtualPath(path));
    };
    if (parts.length === 0) return { kind: "root" };
    if (parts[0] === "assets") {
      if (parts.length === 1) return { kind: "assets" };
      if (parts.length === 2 && (await store.list("asset")).includes(parts[1])) return { kind: "asset", id: parts[1] };
      return missing();
    }
    if (parts[0] === "artifacts") {
      if (parts.length === 1) return { kind: "artifacts" };
      if (!(await store.list("artifact")).includes(parts[1])) return missing();
      if (parts.length === 2) return { kind: "namespace", namespace: parts[1] };
      if (parts.length === 3 && (await store.list("artifact", parts[1])).includes(parts[2])) {
        return { kind: "artifact", namespace: parts[1], name: parts[2] };
      }
    }
    return missing();
  }

  private async bytes(path: string): Promise<Uint8Array> {
    const node = await this.node(path);
    if (node.kind !== "asset" && node.kind !== "artifact") throw new FsError("EISDIR", `EISDIR: is a directory: ${this.virtualPath(path)}`);
    const url = node.kind === "asset" ? `asset://${node.id}` : `artifact://${node.namespace}/${node.name}`;
    // The center is trusted host code (an asset may be fetched over HTTP): run it outside just-bash's guard.
    const payload = await DefenseInDepthBox.runTrustedAsync(() => this.resources.resolve(url));
    return payload.type === "text" ? new TextEncoder().encode(payload.text) : payload.bytes;
  }

  /** The size `read` would give, from the stored files only (an unfetched asset says its declared length or 0). */
  private async size(node: Node): Promise<number> {
    const store = this.resources.store;
    if (node.kind === "asset") {
      const fetched = await stat(store.paths("asset", node.id).bytes).catch(() => undefined);
      return fetched?.size ?? (await store.metadata("asset", node.id))?.byteLength ?? 0;
    }
    if (node.kind !== "artifact") return 0;
    const paths = store.paths("artifact", node.namespace, node.name);
    const file = (await stat(paths.view).catch(() => undefined)) ?? (await stat(paths.bytes).catch(() => undefined));
    return file?.size ?? 0;
  }

  public async readFile(path: string, options?: { encoding?: BufferEncoding | null } | BufferEncoding): Promise<string> {
    const encoding = typeof options === "string" ? options : (options?.encoding ?? "utf8");
    return Buffer.from(await this.bytes(path)).toString(encoding === "utf-8" ? "utf8" : encoding);
  }

  public async readFileBytes(path: string) {
    return Buffer.from(await this.bytes(path)).toString("latin1") as never;
  }

  public readFileBuffer(path: string): Promise<Uint8Array> {
    return this.bytes(path);
  }

  public async exists(path: string): Promise<boolean> {
    return this.node(path).then(
      () => true,
      () => false,
    );
  }

  public async stat(path: string): Promise<FsStat> {
    const node = await this.node(path);
    const file = node.kind === "asset" || node.kind === "artifact";
    return { isFile: file, isDirectory: !file, isSymbolicLink: false, mode: file ? 0o444 : 0o555, size: await this.size(node), mtime: EPOCH };
  }

  public lstat(path: string): Promise<FsStat> {
    return this.stat(path);
  }

  public async readdir(path: string): Promise<string[]> {
    const node = await this.node(path);
    const store = this.resources.store;
    if (node.kind === "root") return ["artifacts", "assets"];
    if (node.kind === "assets") return (await store.list("asset")).sort();
    if (node.kind === "artifacts") return (await store.list("artifact")).sort();
    if (node.kind === "namespace") return (await store.list("artifact", node.namespace)).sort();
    throw new FsError("ENOTDIR", `ENOTDIR: not a directory: ${this.virtualPath(path)}`);
  }

  public async readdirWithFileTypes(path: string): Promise<DirentEntry[]> {
    const node = await this.node(path);
    const files = node.kind === "assets" || node.kind === "namespace";
    return (await this.readdir(path)).map((name) => ({ name, isFile: files, isDirectory: !files, isSymbolicLink: false }));
  }

  public resolvePath(base: string, path: string): string {
    return posix.resolve(base, path);
  }

  public getAllPaths(): string[] {
    return [];
  }

  public async realpath(path: string): Promise<string> {
    await this.node(path);
    return posix.normalize(`/${path}`);
  }

  public async readlink(path: string): Promise<string> {
    throw new FsError("EINVAL", `EINVAL: not a symbolic link: ${this.virtualPath(path)}`);
  }

  private async refuse(path: string): Promise<never> {
    throw readOnly(this.virtualPath(path));
  }

  public writeFile(path: string): Promise<void> {
    return this.refuse(path);
  }
  public appendFile(path: string): Promise<void> {
    return this.refuse(path);
  }
  public mkdir(path: string): Promise<void> {
    return this.refuse(path);
  }
  public rm(path: string): Promise<void> {
    return this.refuse(path);
  }
  public cp(_src: string, dest: string): Promise<void> {
    return this.refuse(dest);
  }
  public mv(src: string): Promise<void> {
    return this.refuse(src);
  }
  public chmod(path: string): Promise<void> {
    return this.refuse(path);
  }
  public symlink(_target: string, linkPath: string): Promise<void> {
    return this.refuse(linkPath);
  }
  public link(_existing: string, newPath: string): Promise<void> {
    return this.refuse(newPath);
  }
  public utimes(path: string): Promise<void> {
    return this.refuse(path);
  }
}
