/**
 * The sidecar (`<id>.json`, `<name>.json`) of a stored asset or artifact (RS-27). `src` is never shown to the
 * model: views and listings drop it.
 */
export interface ResourceMetadata {
  id: string;
  kind: "asset" | "artifact";
  namespace?: string;
  name?: string;
  mediaType?: string;
  byteLength?: number;
  /** sha256 of the bytes, hex. */
  contentHash?: string;
  toolName?: string;
  toolCallId?: string;
  viewName?: string;
  width?: number;
  height?: number;
  createdAt: string;
  fetchedAt?: string;
  src?: string;
  filename?: string;
  /** Where an asset came from, for the model (platform, message, …); never the raw `src`. */
  sourceInfo?: Record<string, unknown>;
}

/** What a caller declares when registering an asset. */
export interface AssetDeclaration {
  mediaType?: string;
  filename?: string;
  width?: number;
  height?: number;
  sourceInfo?: Record<string, unknown>;
}

/** What a caller declares when writing an artifact. */
export interface ArtifactDeclaration {
  mediaType: string;
  toolName?: string;
  toolCallId?: string;
  viewName?: string;
  filename?: string;
  width?: number;
  height?: number;
}
