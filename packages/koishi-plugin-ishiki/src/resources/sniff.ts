function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((byte, i) => bytes[at + i] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

const SIGNATURES: ReadonlyArray<[string, (bytes: Uint8Array) => boolean]> = [
  ["image/png", (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ["image/jpeg", (b) => startsWith(b, [0xff, 0xd8, 0xff])],
  ["image/gif", (b) => startsWith(b, ascii("GIF87a")) || startsWith(b, ascii("GIF89a"))],
  ["image/webp", (b) => startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8)],
  ["audio/wav", (b) => startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WAVE"), 8)],
  ["application/pdf", (b) => startsWith(b, ascii("%PDF-"))],
  ["audio/ogg", (b) => startsWith(b, ascii("OggS"))],
  ["video/webm", (b) => startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])],
  ["video/mp4", (b) => startsWith(b, ascii("ftyp"), 4)],
  ["audio/silk", (b) => startsWith(b, ascii("#!SILK_V3")) || startsWith(b, [0x02, ...ascii("#!SILK_V3")])],
  ["audio/amr", (b) => startsWith(b, ascii("#!AMR"))],
  ["audio/mpeg", (b) => startsWith(b, ascii("ID3")) || (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0)],
];

/** The media type a byte prefix announces, for the formats of RS-31; undefined when none matches. */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(([, test]) => test(bytes))?.[0];
}

/** Whether a declared type names one concrete type (`image/png`), not a wildcard (`image/*`) or nothing. */
export function isConcreteMediaType(mediaType: string | undefined): mediaType is string {
  if (!mediaType) return false;
  const [type, subtype] = mediaType.split(";")[0].trim().split("/");
  return Boolean(type && subtype && type !== "*" && subtype !== "*");
}

/** A declared concrete type wins; wildcard or missing types are sniffed (RS-31). */
export function resolveMediaType(declared: string | undefined, bytes: Uint8Array): string {
  if (isConcreteMediaType(declared)) return declared;
  return sniffMediaType(bytes) ?? "application/octet-stream";
}

/** Types whose bytes are UTF-8 text: read as text rather than bytes. */
export function isTextMediaType(mediaType: string): boolean {
  const type = mediaType.split(";")[0].trim().toLowerCase();
  return (
    type.startsWith("text/") ||
    /^application\/(json|xml|yaml|x-yaml|javascript|x-ndjson|toml|x-sh|sql|graphql)$/.test(type) ||
    /\+(json|xml|yaml)$/.test(type)
  );
}
