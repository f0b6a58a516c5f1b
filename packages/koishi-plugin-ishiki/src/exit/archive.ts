import { createHash } from "node:crypto";
import { probeImage } from "../attachments/image-probe.js";
import { ResourceError, schemeOf, sniffMediaType, type ResourceCenter } from "../resources/index.js";
import type { IshikiAttachmentItem, IshikiAttachmentLifetime } from "../types/index.js";
import { toolErrorText } from "./error-text.js";
import type { MediaData } from "./media-node.js";

/** Where a call's media are archived: the tool's artifact namespace, with the call as provenance. */
export interface ArchiveScope {
  readonly resources: ResourceCenter;
  readonly toolName: string;
  readonly toolCallId: string;
}

/** A node's replacement text, and the record item when the media were archived or reused. */
export interface ArchivedMedia {
  marker: string;
  item?: IshikiAttachmentItem;
}

/** Writing an artifact failed: the whole result fails, no URL is invented (EX-5). */
export class ArchiveError extends Error {
  override name = "ArchiveError";
}

const ASSET_URL = /^asset:\/\/([0-9a-f]{32})$/;
const ARTIFACT_URL = /^artifact:\/\/([A-Za-z0-9_-]+)\/([A-Za-z0-9][A-Za-z0-9._-]*)$/;

function concrete(mediaType: string | undefined): string | undefined {
  if (!mediaType) return undefined;
  const [type, subtype] = mediaType.split(";")[0].trim().split("/");
  return type && subtype && type !== "*" && subtype !== "*" ? mediaType.split(";")[0].trim() : undefined;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The stored asset or artifact a URL names when its hash and type match the bytes (EX-5). */
async function reusableUrl(resources: ResourceCenter, url: string | undefined, bytes: Uint8Array, mediaType: string): Promise<string | undefined> {
  if (url === undefined) return undefined;
  const asset = ASSET_URL.exec(url);
  const artifact = ARTIFACT_URL.exec(url);
  const metadata = asset
    ? await resources.store.metadata("asset", asset[1])
    : artifact
      ? await resources.store.metadata("artifact", artifact[1], artifact[2])
      : undefined;
  if (!metadata || metadata.mediaType !== mediaType || metadata.contentHash !== sha256(bytes)) return undefined;
  return url;
}

export function attachmentMarker(item: Pick<IshikiAttachmentItem, "url" | "mediaType" | "size">): string {
  return `[attachment: ${item.url}; ${item.mediaType}; ${item.size} bytes]`;
}

function itemOf(url: string, bytes: Uint8Array, declared: string | undefined, filename: string | undefined, lifetime: IshikiAttachmentLifetime): IshikiAttachmentItem {
  const header = probeImage(bytes);
  const mediaType = concrete(declared) ?? header?.mediaType ?? sniffMediaType(bytes) ?? "application/octet-stream";
  const item: IshikiAttachmentItem = { url, mediaType, size: bytes.length, lifetime, immutable: true };
  if (filename !== undefined) item.filename = filename;
  if (mediaType.startsWith("image/") && header?.width !== undefined && header.height !== undefined) {
    item.width = header.width;
    item.height = header.height;
  }
  return item;
}

/** Bytes to an item: an existing asset/artifact URL when it holds exactly these bytes, else a new artifact (EX-5). */
async function archiveBytes(
  scope: ArchiveScope,
  media: Extract<MediaData, { kind: "bytes" }>,
  lifetime: IshikiAttachmentLifetime,
): Promise<ArchivedMedia> {
  const item = itemOf("", media.bytes, media.mediaType, media.filename, lifetime);
  const { width, height, filename, mediaType } = item;
  let url = await reusableUrl(scope.resources, media.url, media.bytes, mediaType);
  if (url === undefined) {
    try {
      url = await scope.resources.store.writeArtifact(scope.toolName, media.bytes, {
        mediaType,
        toolName: scope.toolName,
        toolCallId: scope.toolCallId,
        ...(filename === undefined ? {} : { filename }),
        ...(width === undefined ? {} : { width, height }),
      });
    } catch (error) {
      throw new ArchiveError(`${scope.toolName}: could not archive ${mediaType} media of call ${scope.toolCallId}: ${toolErrorText(error)}`, { cause: error });
    }
  }
  item.url = url;
  return { marker: attachmentMarker(item), item };
}

/**
 * A URL alone (EX-4, EX-6): runtime schemes are resolved — immutable content keeps its URL, live references
 * (`local://`, `workspace://`, …) are snapshotted — and foreign URLs stay a note.
 */
async function archiveUrl(
  scope: ArchiveScope,
  media: Extract<MediaData, { kind: "url" }>,
  lifetime: IshikiAttachmentLifetime,
): Promise<ArchivedMedia> {
  const scheme = schemeOf(media.url);
  if (scheme === undefined || !scope.resources.listSchemes().includes(scheme)) {
    return { marker: `[unloaded ${media.mediaType ?? "media"}: ${media.url}]` };
  }
  let payload;
  try {
    payload = await scope.resources.resolve(media.url);
  } catch (error) {
    if (!(error instanceof ResourceError)) throw error;
    return { marker: `[attachment error: ${toolErrorText(error)}]` };
  }
  if (payload.type !== "file") return { marker: `[attachment error: ${media.url} is text, not media; read it instead]` };
  const filename = media.filename ?? payload.filename;
  if (payload.immutable) {
    const item = itemOf(payload.url, payload.bytes, payload.mediaType, filename, lifetime);
    return { marker: attachmentMarker(item), item };
  }
  const snapshot: Extract<MediaData, { kind: "bytes" }> = { kind: "bytes", bytes: payload.bytes, mediaType: payload.mediaType };
  if (filename !== undefined) snapshot.filename = filename;
  return archiveBytes(scope, snapshot, lifetime);
}

/** One explicit media node to its marker and, when it was archived or reused, its record item (EX-4 .. EX-6). */
export async function archiveMedia(scope: ArchiveScope, media: Exclude<MediaData, { kind: "text" }>, lifetime: IshikiAttachmentLifetime): Promise<ArchivedMedia> {
  if (media.kind === "bytes") return archiveBytes(scope, media, lifetime);
  if (media.kind === "url") return archiveUrl(scope, media, lifetime);
  return { marker: `[unloaded ${media.mediaType ?? "media"}: provider reference]` };
}
