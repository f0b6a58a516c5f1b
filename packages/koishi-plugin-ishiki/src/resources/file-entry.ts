import type { ResourceFileSystem } from "./file-system.js";

/**
 * What `FileScheme.open` found for a URL. Without `filesystem` the path is a host path; with it every read goes
 * through that file system. `bytes` short-circuits file access. A declared concrete `mediaType` wins over
 * detection: text types are read as text, other types as bytes.
 */
export interface FileEntry {
  path: string;
  filesystem?: ResourceFileSystem;
  mediaType?: string;
  filename?: string;
  /** Shown by `?view=meta` as JSON. */
  metadata?: Record<string, unknown>;
  bytes?: Uint8Array;
  /** Whether the URL always yields these bytes (default false). */
  immutable?: boolean;
}
