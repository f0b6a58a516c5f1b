import { Buffer } from "node:buffer";
import { posix } from "node:path";
import { BINARY_PROBE_BYTES, looksBinary } from "./binary.js";
import type { FileEntry } from "./file-entry.js";
import type { FileSource } from "./file-source.js";
import type { ResourceFileSystem } from "./file-system.js";
import type { FileUrl } from "./file-url.js";
import { canListDirectory, canReadByteChunks, hostFileSystem, listDirectory, readByteChunks } from "./host-file-system.js";
import { HostFileError } from "./host-open.js";
import { MAX_READ_BYTES } from "./limits.js";
import { PAGE_LINES, PAGE_UNITS } from "./page.js";
import type { FilePayload, ResourcePayload, TextPayload } from "./payload.js";
import { ResourceError } from "./resource-error.js";
import { isConcreteMediaType, isTextMediaType, resolveMediaType } from "./sniff.js";
import { TextScan, type ScanResult } from "./text-scan.js";
import { quote } from "./quote.js";
import { systemErrorText } from "./system-error.js";
import { baseUrl } from "./url-grammar.js";

export interface FileReadOptions {
  signal?: AbortSignal;
  /** Keep only what a first page needs; the source then says where the selection really ends (RS-34). */
  firstPage?: boolean;
}

function tooLarge(url: string, size: number, hint: string): ResourceError {
  const mib = (size / 1024 / 1024).toFixed(1);
  return new ResourceError("resource_too_large", `${quote(url)}: ${mib} MiB is above the ${MAX_READ_BYTES / 1024 / 1024} MiB read limit; ${hint}`);
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Runs a file-system call, turning its failure into a `ResourceError` that names the URL and no host path:
 * "no such file" is `resource_not_found`, a FIFO or device `resource_read_failed`, a path that changed while
 * it was opened `invalid_resource_uri`, a file over the limit `resource_too_large`.
 */
export async function found<T>(url: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ResourceError || (error as { name?: unknown })?.name === "AbortError") throw error;
    if (isMissing(error)) throw new ResourceError("resource_not_found", `${quote(url)}: no such file or directory`, { cause: error });
    const code = (error as { code?: unknown } | undefined)?.code;
    if (code === "EFBIG") {
      throw new ResourceError("resource_too_large", `${quote(url)}: more than the ${MAX_READ_BYTES / 1024 / 1024} MiB read limit; use a line selector such as :1-2000`);
    }
    const text = error instanceof HostFileError ? error.message : systemErrorText(error);
    if (text === undefined) throw error;
    throw new ResourceError(code === "EACCES" && error instanceof HostFileError ? "invalid_resource_uri" : "resource_read_failed", `${quote(url)}: ${text}`, { cause: error });
  }
}

async function listing(filesystem: ResourceFileSystem, path: string): Promise<string> {
  if (canListDirectory(filesystem)) return (await filesystem[listDirectory](path)).join("\n");
  const names = (await filesystem.readdir(path)).sort();
  const lines = await Promise.all(
    names.map(async (name) => {
      const info = await filesystem.stat(posix.join(path, name)).catch(() => undefined);
      return info?.isDirectory ? `${name}/` : name;
    }),
  );
  return lines.join("\n");
}

type Chunks = AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

async function scanText(file: FileUrl, chunks: Chunks, options: FileReadOptions): Promise<ScanResult> {
  const scan = new TextScan({
    url: quote(baseUrl(file.url)),
    selection: file.selection,
    offset: file.offset,
    maxUnits: options.firstPage ? PAGE_UNITS + 1 : undefined,
    maxNewlines: options.firstPage ? PAGE_LINES + 1 : undefined,
    maxBytes: MAX_READ_BYTES,
    signal: options.signal,
  });
  for await (const chunk of chunks) scan.push(chunk);
  return scan.finish();
}

function textPayload(file: FileUrl, entry: FileEntry, result: ScanResult, mediaType: string): TextPayload {
  const source: FileSource = { kind: "file", url: baseUrl(file.url), totalLines: result.totalLines, totalChars: result.totalChars };
  if (file.selection || file.offset) {
    source.range = result.endLine === undefined ? { start: result.startLine } : { start: result.startLine, end: result.endLine };
  }
  if (result.startOffset > 0) source.offset = result.startOffset;
  if (result.startOffset + result.text.length < result.endOffset) source.selectedEnd = result.endOffset;
  const payload: TextPayload = { type: "text", url: file.url, text: result.text, size: Buffer.byteLength(result.text), mediaType, source };
  const filename = entry.filename ?? (posix.basename(entry.path) || undefined);
  if (filename) payload.filename = filename;
  return payload;
}

function filePayload(file: FileUrl, entry: FileEntry, bytes: Uint8Array): FilePayload {
  if (file.selection || file.offset) {
    throw new ResourceError("invalid_resource_uri", `${quote(file.url)}: line selectors and #offset need text, and this resource is binary; read it without them`);
  }
  const payload: FilePayload = {
    type: "file",
    url: file.url,
    bytes,
    mediaType: resolveMediaType(entry.mediaType, bytes),
    size: bytes.length,
    immutable: entry.immutable ?? false,
  };
  const filename = entry.filename ?? (posix.basename(entry.path) || undefined);
  if (filename) payload.filename = filename;
  return payload;
}

/** The file as a stream: raw bytes from the host, decoded text from a file system that offers it, else whole. */
async function streamOf(file: FileUrl, filesystem: ResourceFileSystem, path: string, signal?: AbortSignal): Promise<Chunks> {
  if (canReadByteChunks(filesystem)) return filesystem[readByteChunks](path, signal);
  if (filesystem.readText) return filesystem.readText(path, { signal });
  return [await found(file.url, () => filesystem.readFileBuffer(path))];
}

/**
 * Reads what `open` found (RS-18, RS-19, RS-21): a directory listing, text with its source, or bytes. A declared
 * concrete type decides text or bytes; otherwise the first 8 KiB do.
 */
export async function readEntry(file: FileUrl, entry: FileEntry, options: FileReadOptions): Promise<ResourcePayload> {
  const filesystem = entry.filesystem ?? hostFileSystem;
  const declared = isConcreteMediaType(entry.mediaType) ? entry.mediaType : undefined;
  const textMediaType = declared && isTextMediaType(declared) ? declared : "text/plain";
  const ranged = Boolean(file.selection || file.offset || options.firstPage);
  if (entry.bytes) {
    const bytes = entry.bytes;
    if (declared ? !isTextMediaType(declared) : looksBinary(bytes, true)) {
      if (bytes.length > MAX_READ_BYTES) throw tooLarge(file.url, bytes.length, "it cannot be read whole");
      return filePayload(file, entry, bytes);
    }
    if (!ranged && bytes.length > MAX_READ_BYTES) throw tooLarge(file.url, bytes.length, "use a line selector such as :1-2000");
    return textPayload(file, entry, await scanText(file, [bytes], options), textMediaType);
  }
  const info = await found(file.url, () => filesystem.stat(entry.path));
  if (!info.isFile && !info.isDirectory) {
    throw new ResourceError("resource_read_failed", `${quote(file.url)}: not a regular file or directory; only those can be read`);
  }
  if (info.isDirectory) {
    const text = await found(file.url, () => listing(filesystem, entry.path));
    return textPayload(file, entry, await scanText(file, [text], options), "inode/directory");
  }
  let whole: Uint8Array | undefined;
  let binary = declared ? !isTextMediaType(declared) : false;
  if (!declared) {
    const prefix = filesystem.readFilePrefix
      ? await found(file.url, () => filesystem.readFilePrefix!(entry.path, BINARY_PROBE_BYTES))
      : (whole = await found(file.url, () => filesystem.readFileBuffer(entry.path)));
    binary = looksBinary(prefix, info.size <= BINARY_PROBE_BYTES);
  }
  if (binary) {
    if (info.size > MAX_READ_BYTES) throw tooLarge(file.url, info.size, "it cannot be read whole");
    return filePayload(file, entry, whole ?? (await found(file.url, () => filesystem.readFileBuffer(entry.path))));
  }
  if (!ranged && info.size > MAX_READ_BYTES) throw tooLarge(file.url, info.size, "use a line selector such as :1-2000");
  const chunks = whole ? [whole] : await streamOf(file, filesystem, entry.path, options.signal);
  return textPayload(file, entry, await found(file.url, () => scanText(file, chunks, options)), textMediaType);
}
