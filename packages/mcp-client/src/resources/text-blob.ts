import { Buffer } from "node:buffer";

/**
 * Media types whose bytes are UTF-8 text (the kernel's resource center uses the same list; it does not export
 * it): a resource or embedded blob of such a type is shown to the model as text, not as an attachment.
 */
export function isTextMediaType(mediaType: string | undefined): boolean {
  if (mediaType === undefined) return false;
  const type = mediaType.split(";")[0].trim().toLowerCase();
  return (
    type.startsWith("text/") ||
    /^application\/(json|xml|yaml|x-yaml|javascript|x-ndjson|toml|x-sh|sql|graphql)$/.test(type) ||
    /\+(json|xml|yaml)$/.test(type)
  );
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The text of a base64 blob declared as text, or undefined when it is not text or not valid UTF-8. */
export function blobText(blob: string, mediaType: string | undefined): string | undefined {
  if (!isTextMediaType(mediaType)) return undefined;
  try {
    return UTF8.decode(Buffer.from(blob, "base64"));
  } catch {
    return undefined;
  }
}
