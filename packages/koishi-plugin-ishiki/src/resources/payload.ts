import type { FileSource } from "./file-source.js";

/** Text from a resource; `size` is the UTF-8 byte length of `text` (RS-15). */
export interface TextPayload {
  type: "text";
  url: string;
  text: string;
  size: number;
  mediaType?: string;
  filename?: string;
  source?: FileSource;
}

/**
 * Media from a resource. `immutable: true` promises the URL always yields these bytes; dynamic sources say
 * `false` and are snapshotted when used as attachments (RS-15).
 */
export interface FilePayload {
  type: "file";
  url: string;
  bytes: Uint8Array;
  mediaType: string;
  size: number;
  filename?: string;
  immutable: boolean;
}

export type ResourcePayload = TextPayload | FilePayload;
