import { Buffer } from "node:buffer";

/** Media found in an explicit node (04 EX-3, EX-4), before it is archived. */
export type MediaData =
  | { kind: "bytes"; bytes: Uint8Array; mediaType?: string; url?: string; filename?: string }
  | { kind: "url"; url: string; mediaType?: string; filename?: string }
  | { kind: "reference"; mediaType?: string }
  | { kind: "text"; text: string };

type Described = { mediaType?: string; filename?: string; url?: string };

const MEDIA_NODE_TYPES = new Set(["image", "audio", "video", "file", "media", "image-data", "file-data"]);
const URL_PART_TYPES = new Set(["file-url", "image-url"]);
const REFERENCE_PART_TYPES = new Set(["file-id", "image-file-id", "file-reference", "image-file-reference"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function withDescription<T extends MediaData>(media: T, described: Described): T {
  const out = { ...media } as Record<string, unknown>;
  for (const [key, value] of Object.entries(described)) if (value !== undefined && out[key] === undefined) out[key] = value;
  return out as T;
}

/** `data:[<type>][;base64],<data>`: base64, or percent-encoded text. */
function fromDataUrl(url: string): { bytes: Uint8Array; mediaType?: string } | undefined {
  const comma = url.indexOf(",");
  if (comma < 0) return undefined;
  const header = url.slice(5, comma);
  const body = url.slice(comma + 1);
  const base64 = header.endsWith(";base64");
  const mediaType = (base64 ? header.slice(0, -7) : header).split(";")[0] || undefined;
  const bytes = base64 ? Buffer.from(body, "base64") : Buffer.from(decodeURIComponent(body), "utf8");
  return mediaType === undefined ? { bytes } : { bytes, mediaType };
}

/** The data forms of EX-4: base64, `data:` URL, bytes, `{ type: "url" }`, `{ type: "reference" }`, plus SDK tags. */
function fromData(data: unknown, described: Described): MediaData | undefined {
  if (typeof data === "string") {
    if (data.startsWith("data:")) {
      const decoded = fromDataUrl(data);
      return decoded && withDescription({ kind: "bytes", ...decoded }, described);
    }
    return withDescription({ kind: "bytes", bytes: Buffer.from(data, "base64") }, described);
  }
  if (data instanceof Uint8Array) return withDescription({ kind: "bytes", bytes: data }, described);
  if (data instanceof ArrayBuffer) return withDescription({ kind: "bytes", bytes: new Uint8Array(data) }, described);
  if (Array.isArray(data) && data.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)) {
    return withDescription({ kind: "bytes", bytes: Uint8Array.from(data as number[]) }, described);
  }
  if (data instanceof URL) return withDescription({ kind: "url", url: data.href }, described);
  if (!isRecord(data)) return undefined;
  if (data.type === "data") return fromData(data.data, described);
  if (data.type === "url" && (typeof data.url === "string" || data.url instanceof URL)) {
    return withDescription({ kind: "url", url: String(data.url) }, described);
  }
  if (data.type === "reference") return withDescription({ kind: "reference" }, described);
  if (data.type === "text" && typeof data.text === "string") return { kind: "text", text: data.text };
  return undefined;
}

/**
 * The media of an explicit node, or undefined for anything else (04 EX-3): raw `read` file results; content
 * parts (`file`, `file-data`, `image-data`, `file-url`, `image-url`, provider references); nodes typed
 * `image`, `audio`, `video`, `file`, `media`, `image-data`, `file-data` carrying `mediaType`/`mimeType`; MCP
 * embedded `resource` with `blob` (a text resource yields its text). Plain `data` fields, base64-looking
 * strings and untyped JSON are never taken for media.
 */
export function mediaNode(node: unknown): MediaData | undefined {
  if (!isRecord(node) || typeof node.type !== "string") return undefined;
  const type = node.type;
  if (type === "resource" && isRecord(node.resource)) {
    const resource = node.resource;
    if (typeof resource.text === "string") return { kind: "text", text: resource.text };
    if (typeof resource.blob !== "string") return undefined;
    return fromData(resource.blob, { mediaType: text(resource.mimeType), url: text(resource.uri) });
  }
  const mediaType = text(node.mediaType) ?? text(node.mimeType);
  const described: Described = { mediaType, filename: text(node.filename) ?? text(node.name), url: text(node.url) };
  if (URL_PART_TYPES.has(type) && described.url !== undefined) return withDescription({ kind: "url", url: described.url }, described);
  if (REFERENCE_PART_TYPES.has(type)) return withDescription({ kind: "reference" }, described);
  // A typed node carries its media in `data` (any EX-4 form); a bare `url` beside a type is plain JSON (a
  // listing entry, say), and with `data` it is only provenance.
  if (!MEDIA_NODE_TYPES.has(type) || mediaType === undefined || node.data === undefined) return undefined;
  return fromData(node.data, described);
}

/** A raw `read` text result (03 RS-33), recognised by its shape. */
export interface RawReadText {
  type: "text";
  url: string;
  text: string;
  size: number;
  source?: { kind: "file"; url: string; totalLines: number; totalChars: number };
}

export function isRawReadText(value: unknown): value is RawReadText {
  return isRecord(value) && value.type === "text" && typeof value.url === "string" && typeof value.text === "string" && typeof value.size === "number";
}

export { isRecord };
