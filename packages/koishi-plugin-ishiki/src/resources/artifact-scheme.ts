import type { FileEntry } from "./file-entry.js";
import { FileScheme } from "./file-scheme.js";
import type { FileUrl } from "./file-url.js";
import { publicMetadata } from "./public-metadata.js";
import { ResourceError } from "./resource-error.js";
import type { ResourceStore } from "./resource-store.js";
import { quote } from "./quote.js";

/**
 * `artifact://<tool>/<name>`: immutable stored tool output (RS-24). The readable view if one was stored
 * (`text/plain`), else the bytes (text for UTF-8 text types); `?view=original` is the stored raw content.
 * Never fetches.
 */
export class ArtifactScheme extends FileScheme {
  public readonly scheme = "artifact";
  protected override readonly views = ["original"];
  private readonly store: ResourceStore;

  public constructor(store: ResourceStore) {
    super();
    this.store = store;
  }

  protected async open(file: FileUrl): Promise<FileEntry> {
    const namespace = file.authority;
    const name = file.segments[0];
    if (!/^[A-Za-z0-9_-]+$/.test(namespace) || file.segments.length !== 1 || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
      throw new ResourceError("invalid_resource_uri", `${quote(file.url)}: expected artifact://<tool>/<name>`);
    }
    const metadata = await this.store.metadata("artifact", namespace, name);
    if (!metadata) throw new ResourceError("resource_not_found", `artifact://${namespace}/${name}: no such artifact in this runtime`);
    const paths = this.store.paths("artifact", namespace, name);
    const blobType = metadata.mediaType ?? "application/octet-stream";
    const entry: FileEntry = { path: paths.bytes, mediaType: blobType, immutable: true, metadata: publicMetadata(metadata) };
    if (metadata.filename !== undefined) entry.filename = metadata.filename;
    if (file.view === "meta") return entry;
    if (metadata.viewName !== undefined && file.view !== "original") {
      return { ...entry, path: paths.view, mediaType: "text/plain", bytes: await this.store.readArtifact(namespace, name, "view") };
    }
    // A declared text type makes the blob read as text, base64 inside it included; other types read as bytes.
    return { ...entry, bytes: await this.store.readArtifact(namespace, name, "blob") };
  }
}
