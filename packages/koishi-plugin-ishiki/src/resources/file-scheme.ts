import { Buffer } from "node:buffer";
import { posix } from "node:path";
import type { FileEntry } from "./file-entry.js";
import type { FileUrl } from "./file-url.js";
import { found, readEntry, type FileReadOptions } from "./file-read.js";
import { hostFileSystem } from "./host-file-system.js";
import type { ResourcePayload, TextPayload } from "./payload.js";
import { ResourceError } from "./resource-error.js";
import type { SchemeHandler } from "./scheme-handler.js";
import { quote } from "./quote.js";
import { parseFileUrl } from "./url-grammar.js";

/**
 * Base class of file-like schemes (RS-17..RS-19): subclasses declare `scheme` and implement `open`, and get the
 * URL grammar, line selectors, `?view=meta`, lossless `#offset` continuation, directory listings and binary
 * detection. Root and symlink confinement is the subclass's job in `open` (use `containPath` for host paths);
 * a host path must never be accepted as a virtual path.
 */
export abstract class FileScheme implements SchemeHandler {
  public abstract readonly scheme: string;
  /** Views besides `meta` that `open` serves itself (e.g. artifacts' `original`). */
  protected readonly views: readonly string[] = [];

  /** Finds the file a parsed URL names; throw `ResourceError` (`resource_not_found`, …) when there is none. */
  protected abstract open(url: FileUrl): FileEntry | Promise<FileEntry>;

  public async resolve(url: string, options: FileReadOptions = {}): Promise<ResourcePayload> {
    const file = this.parse(url);
    if (file.view === "meta") return this.describe(file);
    return readEntry(file, await this.open(file), options);
  }

  /** The host path of a host-file-backed URL, without reading it; undefined for virtual file systems. */
  public async locate(url: string): Promise<string | undefined> {
    const entry = await this.open(this.parse(url));
    return entry.filesystem ? undefined : entry.path;
  }

  /** `?view=meta`: what is known without loading bytes (RS-12, RS-19). */
  protected async describe(file: FileUrl): Promise<TextPayload> {
    const entry = await this.open(file);
    let size = entry.bytes?.length;
    let kind = "file";
    if (size === undefined) {
      const info = await found(file.url, () => (entry.filesystem ?? hostFileSystem).stat(entry.path));
      size = info.size;
      if (info.isDirectory) kind = "directory";
    }
    const lines = [
      `url: ${file.url}`,
      `mediaType: ${kind === "directory" ? "inode/directory" : (entry.mediaType ?? "not declared")}`,
      `size: ${size} bytes`,
    ];
    const filename = entry.filename ?? (posix.basename(entry.path) || undefined);
    if (filename) lines.push(`filename: ${filename}`);
    if (entry.metadata) lines.push(`metadata: ${JSON.stringify(entry.metadata)}`);
    lines.push("metadata only; no bytes were loaded");
    return metaPayload(file.url, lines);
  }

  /** Parses and checks a URL of this scheme, rejecting views it does not serve. */
  protected parse(url: string): FileUrl {
    const file = parseFileUrl(url);
    if (file.scheme !== this.scheme) {
      throw new ResourceError("invalid_resource_uri", `${quote(url)}: expected a ${this.scheme}:// URL`);
    }
    if (file.view !== undefined && file.view !== "meta" && !this.views.includes(file.view)) {
      const supported = ["meta", ...this.views].join(", ");
      throw new ResourceError("unsupported_view", `${quote(url)}: ${this.scheme}:// has no view "${quote(file.view)}"; supported: ${supported}`);
    }
    return file;
  }
}

/** A `?view=meta` text payload from its lines. */
export function metaPayload(url: string, lines: string[]): TextPayload {
  const text = lines.join("\n");
  return { type: "text", url, text, size: Buffer.byteLength(text), mediaType: "text/plain" };
}
