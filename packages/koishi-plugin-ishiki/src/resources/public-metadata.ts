import type { ResourceMetadata } from "./resource-metadata.js";

/** A sidecar as the model may see it: without `src` (RS-27) and without empty fields. */
export function publicMetadata(metadata: ResourceMetadata): Record<string, unknown> {
  const { src: _src, ...rest } = metadata;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
}
