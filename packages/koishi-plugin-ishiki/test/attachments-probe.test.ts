import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { probeImage } from "../src/attachments/index.js";
import { png } from "./exit-support.js";

function gif(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(16);
  bytes.write("GIF89a", 0, "latin1");
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

/** SOI, an APP0 segment to skip, then a frame header of the given marker. */
function jpeg(width: number, height: number, sof = 0xc2): Uint8Array {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const frame = Buffer.alloc(19);
  frame.set([0xff, sof, 0x00, 0x11, 0x08]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, Buffer.from([0xff, 0xc4, 0x00, 0x02]), frame]);
}

function webp(chunk: "VP8X" | "VP8L" | "VP8 ", width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(40);
  bytes.write("RIFF", 0, "latin1");
  bytes.write("WEBP", 8, "latin1");
  bytes.write(chunk, 12, "latin1");
  if (chunk === "VP8X") {
    bytes.writeUIntLE(width - 1, 24, 3);
    bytes.writeUIntLE(height - 1, 27, 3);
  } else if (chunk === "VP8L") {
    bytes[20] = 0x2f;
    const bits = (width - 1) | ((height - 1) << 14);
    bytes.writeUInt32LE(bits >>> 0, 21);
  } else {
    bytes.set([0x9d, 0x01, 0x2a], 23);
    bytes.writeUInt16LE(width, 26);
    bytes.writeUInt16LE(height, 28);
  }
  return bytes;
}

describe("image headers", () => {
  it("EX-5 EX-29 width and height come from PNG, GIF, JPEG SOFn and WebP headers without decoding", () => {
    expect(probeImage(png(640, 480))).toEqual({ mediaType: "image/png", width: 640, height: 480 });
    expect(probeImage(gif(33, 44))).toEqual({ mediaType: "image/gif", width: 33, height: 44 });
    expect(probeImage(jpeg(1920, 1080))).toEqual({ mediaType: "image/jpeg", width: 1920, height: 1080 });
    expect(probeImage(jpeg(10, 20, 0xc0))).toEqual({ mediaType: "image/jpeg", width: 10, height: 20 });
    expect(probeImage(webp("VP8X", 9001, 12))).toEqual({ mediaType: "image/webp", width: 9001, height: 12 });
    expect(probeImage(webp("VP8L", 300, 200))).toEqual({ mediaType: "image/webp", width: 300, height: 200 });
    expect(probeImage(webp("VP8 ", 64, 32))).toEqual({ mediaType: "image/webp", width: 64, height: 32 });
  });

  it("EX-29 other encodings are not images to the gate", () => {
    expect(probeImage(Buffer.from("BM6\0\0\0\0\0"))).toBeUndefined();
    expect(probeImage(Buffer.from("%PDF-1.7"))).toBeUndefined();
    expect(probeImage(new Uint8Array())).toBeUndefined();
  });
});
