/** What an image's header says, read without decoding (04 EX-5, EX-29). */
export interface ImageHeader {
  mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  width?: number;
  height?: number;
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);

function sized(mediaType: ImageHeader["mediaType"], width: number | undefined, height: number | undefined): ImageHeader {
  return width === undefined || height === undefined ? { mediaType } : { mediaType, width, height };
}

function png(b: Uint8Array): ImageHeader {
  return b.length >= 24 && ascii(b, 12, "IHDR") ? sized("image/png", u32be(b, 16), u32be(b, 20)) : { mediaType: "image/png" };
}

function gif(b: Uint8Array): ImageHeader {
  return b.length >= 10 ? sized("image/gif", u16le(b, 6), u16le(b, 8)) : { mediaType: "image/gif" };
}

/** Walks the JPEG segments to the first start-of-frame marker (SOF0..SOF15 without DHT, JPG and DAC). */
function jpeg(b: Uint8Array): ImageHeader {
  let at = 2;
  while (at + 3 < b.length) {
    if (b[at] !== 0xff) break;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return at + 8 < b.length ? sized("image/jpeg", u16be(b, at + 7), u16be(b, at + 5)) : { mediaType: "image/jpeg" };
    }
    at += 2 + u16be(b, at + 2);
  }
  return { mediaType: "image/jpeg" };
}

function webp(b: Uint8Array): ImageHeader {
  if (ascii(b, 12, "VP8X") && b.length >= 30) return sized("image/webp", 1 + u24le(b, 24), 1 + u24le(b, 27));
  if (ascii(b, 12, "VP8L") && b.length >= 25 && b[20] === 0x2f) {
    const width = 1 + (((b[22] & 0x3f) << 8) | b[21]);
    const height = 1 + (((b[24] & 0x0f) << 10) | (b[23] << 2) | ((b[22] & 0xc0) >> 6));
    return sized("image/webp", width, height);
  }
  if (ascii(b, 12, "VP8 ") && b.length >= 30) return sized("image/webp", u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  return { mediaType: "image/webp" };
}

/**
 * The encoding and dimensions of a PNG, GIF, JPEG or WebP image from its header alone; undefined for any other
 * encoding. No resizing, cropping or decoding (EX-11).
 */
export function probeImage(bytes: Uint8Array): ImageHeader | undefined {
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(bytes, 1, "PNG\r\n\x1a\n")) return png(bytes);
  if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a")) return gif(bytes);
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpeg(bytes);
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return webp(bytes);
  return undefined;
}
