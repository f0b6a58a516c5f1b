import { Buffer, isAscii, isUtf8 } from "node:buffer";

/** Newlines in UTF-8 bytes: a `\n` byte never occurs inside a multi-byte sequence. */
export function countByteNewlines(bytes: Buffer): number {
  let count = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) count++;
  return count;
}

/** Index where a multi-byte sequence cut by the end of `bytes` starts, or the length when none is cut. */
function completeEnd(bytes: Buffer): number {
  let i = bytes.length - 1;
  while (i >= 0 && bytes.length - i <= 4 && (bytes[i] & 0xc0) === 0x80) i--;
  if (i < 0 || bytes.length - i > 4) return bytes.length;
  const lead = bytes[i];
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + length <= bytes.length ? bytes.length : i;
}

/** UTF-16 units of valid UTF-8 bytes `[0, end)`: one per sequence, two for four-byte sequences. */
export function utf16Units(bytes: Buffer, end: number): number {
  let units = 0;
  for (let i = 0; i < end; i++) {
    const byte = bytes[i];
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

/**
 * How a chunk can be counted without decoding: its complete part `[0, end)` and that part's UTF-16 units, or
 * undefined when it is not valid UTF-8 (the decoder must then replace the bad bytes).
 */
export function countable(bytes: Buffer): { end: number; units: number; ascii: boolean } | undefined {
  if (isAscii(bytes)) return { end: bytes.length, units: bytes.length, ascii: true };
  const end = completeEnd(bytes);
  if (!isUtf8(bytes.subarray(0, end))) return undefined;
  return { end, units: utf16Units(bytes, end), ascii: false };
}
