import { stat } from "node:fs/promises";
import { sourceBasename } from "./asset-fetch.js";
import type { FileEntry } from "./file-entry.js";
import { FileScheme, metaPayload } from "./file-scheme.js";
import type { FileUrl } from "./file-url.js";
import type { TextPayload } from "./payload.js";
import { publicMetadata } from "./public-metadata.js";
import { ResourceError } from "./resource-error.js";
import type { ResourceMetadata } from "./resource-metadata.js";
import type { ResourceStore } from "./resource-store.js";
import { quote } from "./quote.js";

function assetId(file: FileUrl): string {
  if (!/^[0-9a-f]{32}$/.test(file.authority) || file.segments.length > 0) {
    throw new ResourceError("invalid_resource_uri", `${quote(file.url)}: expected asset://<32 lower-case hex>`);
  }
  return file.authority;
}

function filenameOf(metadata: ResourceMetadata): string | undefined {
  return metadata.filename ?? (metadata.src === undefined ? undefined : sourceBasename(metadata.src));
}

/** `asset://<32 hex>`: inbound media, fetched on first read, then fixed (RS-23). */
export class AssetScheme extends FileScheme {
  public readonly scheme = "asset";
  private readonly store: ResourceStore;

  public constructor(store: ResourceStore) {
    super();
    this.store = store;
  }

  public override async locate(url: string): Promise<string | undefined> {
    const id = assetId(this.parse(url));
    const path = this.store.paths("asset", id).bytes;
    return (await stat(path).catch(() => undefined)) ? path : undefined;
  }

  protected async open(file: FileUrl): Promise<FileEntry> {
    const id = assetId(file);
    const { bytes, metadata } = await this.store.readAsset(id);
    const entry: FileEntry = { path: this.store.paths("asset", id).bytes, bytes, immutable: true, metadata: publicMetadata(metadata) };
    if (metadata.mediaType !== undefined) entry.mediaType = metadata.mediaType;
    const filename = filenameOf(metadata);
    if (filename !== undefined) entry.filename = filename;
    return entry;
  }

  /** Never fetches: an unfetched asset says so (RS-23). */
  protected override async describe(file: FileUrl): Promise<TextPayload> {
    const id = assetId(file);
    const metadata = await this.store.metadata("asset", id);
    if (!metadata) throw new ResourceError("resource_not_found", `asset://${id}: no such asset in this runtime`);
    const lines = [
      `url: asset://${id}`,
      `mediaType: ${metadata.mediaType ?? "not known until fetched"}`,
      `size: ${metadata.byteLength === undefined ? "not fetched yet" : `${metadata.byteLength} bytes`}`,
    ];
    const filename = filenameOf(metadata);
    if (filename) lines.push(`filename: ${filename}`);
    if (metadata.width !== undefined && metadata.height !== undefined) lines.push(`dimensions: ${metadata.width}x${metadata.height}`);
    if (metadata.sourceInfo) lines.push(`source: ${JSON.stringify(metadata.sourceInfo)}`);
    lines.push(`metadata only; no bytes were loaded; read({url: "asset://${id}"}) for the content`);
    return metaPayload(file.url, lines);
  }
}
