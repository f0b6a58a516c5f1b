import type { ArtifactDeclaration, AssetDeclaration, ResourceMetadata } from "./resource-metadata.js";

/** Artifact content: bytes, a string, or a string in pieces (each piece whole: no surrogate pair split between two). */
export type ArtifactContent = Uint8Array | string | Iterable<string>;

/**
 * One runtime's content-addressed store under `<home>/resources/` (RS-26..RS-30): lazily fetched assets and
 * immutable artifacts. Writes are atomic (temp file + rename); read bytes go through a process-wide bounded
 * cache. Only the store's runtime may resolve its URLs.
 */
export interface ResourceStore {
  /** `<home>/resources`. */
  readonly root: string;
  /** Registers inbound media by source; returns `asset://<first 32 hex of sha256(src)>`. Idempotent; never fetches. */
  registerAsset(src: string, declared?: AssetDeclaration): Promise<string>;
  /** The asset's bytes, fetched on first read (one fetch shared by concurrent readers). */
  readAsset(id: string, options?: { signal?: AbortSignal }): Promise<{ bytes: Uint8Array; metadata: ResourceMetadata }>;
  /**
   * Writes an artifact (its content plus an optional readable view); returns `artifact://<tool>/<name>`. Same
   * content, same URL. A string (whole or in pieces) is stored as UTF-8 without being copied into one buffer first.
   */
  writeArtifact(tool: string, content: ArtifactContent, declared: ArtifactDeclaration, view?: string): Promise<string>;
  /** The stored bytes of an artifact's blob, or of its readable view. */
  readArtifact(namespace: string, name: string, part?: "blob" | "view"): Promise<Uint8Array>;
  /** A sidecar, or undefined when the resource does not exist. */
  metadata(kind: "asset", id: string): Promise<ResourceMetadata | undefined>;
  metadata(kind: "artifact", namespace: string, name: string): Promise<ResourceMetadata | undefined>;
  /** Asset ids, or artifact namespaces, or the artifact names of one namespace; never fetches. */
  list(kind: "asset" | "artifact", namespace?: string): Promise<string[]>;
  /** Host paths of a stored resource's files (the asset's bytes exist only once fetched). */
  paths(kind: "asset", id: string): { bytes: string; sidecar: string };
  paths(kind: "artifact", namespace: string, name: string): { bytes: string; sidecar: string; view: string };
  /** Drops this store's cached bytes (runtime stop or eviction). */
  dispose(): void;
}
