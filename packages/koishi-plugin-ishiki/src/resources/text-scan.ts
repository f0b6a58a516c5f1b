import { Buffer } from "node:buffer";
import { ResourceError } from "./resource-error.js";
import { countable, countByteNewlines, utf16Units } from "./utf8-count.js";

/** What to keep while scanning a text: a line selection or an offset, and caps for first-page reads. */
export interface ScanPlan {
  /** Names the URL in error messages. */
  url: string;
  selection?: { start: number; end?: number };
  offset?: { offset: number; end?: number };
  /** Stop keeping text after this many UTF-16 units (first pages). */
  maxUnits?: number;
  /** Stop keeping text after this many newlines (first pages). */
  maxNewlines?: number;
  /** The kept text may hold at most this many UTF-8 bytes. */
  maxBytes: number;
  signal?: AbortSignal;
}

export interface ScanResult {
  text: string;
  /** UTF-16 offset of the text's first unit and the line holding it. */
  startOffset: number;
  startLine: number;
  /** UTF-16 offset where the requested text ends (beyond `text` when a cap stopped keeping it). */
  endOffset: number;
  /** The requested last line, clamped to the text. */
  endLine?: number;
  totalLines: number;
  totalChars: number;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/** Index just after the n-th newline at or after `from`, or -1. */
function afterNewline(text: string, from: number, n: number): number {
  let i = from - 1;
  for (let k = 0; k < n; k++) {
    i = text.indexOf("\n", i + 1);
    if (i < 0) return -1;
  }
  return i + 1;
}

/**
 * One streaming pass over a text given as decoded strings or UTF-8 bytes: keeps only the requested part and
 * counts lines and UTF-16 units of the whole. Valid UTF-8 chunks before and after the kept part are counted
 * without decoding (a `\n` byte never occurs inside a multi-byte sequence), so memory stays independent of the
 * file size; invalid bytes go through the decoder, which replaces them exactly as a whole read would.
 */
export class TextScan {
  private readonly plan: ScanPlan;
  /** The requested last line, whose end stops the kept text. */
  private readonly lastLine: number | undefined;
  // The BOM is kept: byte counting and decoding must agree on every unit of the stable text.
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly parts: string[] = [];
  private pos = 0;
  private newlines = 0;
  private endsWithNewline = false;
  private started = false;
  private done = false;
  private startOffset = 0;
  private startLine = 1;
  /** Offset just after the newline ending `lastLine`, once seen. */
  private lastLineEnd: number | undefined;
  private keptUnits = 0;
  private keptNewlines = 0;
  private keptBytes = 0;
  /** The decoder holds no partial sequence, so chunks may be counted as bytes. */
  private clean = true;
  /** A multi-byte sequence cut by the end of a chunk counted as bytes, completed by the next chunk. */
  private carry: Buffer | undefined;

  public constructor(plan: ScanPlan) {
    this.plan = plan;
    this.lastLine = plan.selection?.end ?? plan.offset?.end;
  }

  public push(chunk: string | Uint8Array): void {
    this.plan.signal?.throwIfAborted();
    if (typeof chunk === "string") return this.pushText(chunk);
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    if (this.carry) [bytes, this.carry] = [Buffer.concat([this.carry, bytes]), undefined];
    if (bytes.length === 0) return;
    if (this.clean) {
      const counted = countable(bytes);
      if (counted) {
        const newlines = countByteNewlines(bytes);
        if (this.done || this.startsAfter(counted.units, newlines)) return this.countBytes(bytes, counted, newlines);
      }
    }
    this.pushText(this.decoder.decode(bytes, { stream: true }));
    this.clean = bytes[bytes.length - 1] < 0x80;
  }

  public finish(): ScanResult {
    if (this.carry) this.pushText(this.decoder.decode(this.carry, { stream: true }));
    this.pushText(this.decoder.decode());
    const totalChars = this.pos;
    const totalLines = this.newlines + (totalChars > 0 && !this.endsWithNewline ? 1 : 0);
    const { selection, offset, url } = this.plan;
    if (selection && selection.start > totalLines) {
      throw new ResourceError("invalid_resource_uri", `${url}: line ${selection.start} is beyond the end (${totalLines} lines)`);
    }
    if (offset && offset.offset > totalChars) {
      throw new ResourceError("invalid_resource_uri", `${url}: offset ${offset.offset} is beyond the end (${totalChars} characters)`);
    }
    if (!this.started) {
      this.startOffset = totalChars;
      this.startLine = Math.max(1, Math.min(this.newlines + 1, totalLines));
    }
    const result: ScanResult = {
      text: this.parts.join(""),
      startOffset: this.startOffset,
      startLine: this.startLine,
      endOffset: this.lastLineEnd ?? totalChars,
      totalLines,
      totalChars,
    };
    if (this.lastLine !== undefined) result.endLine = Math.min(this.lastLine, Math.max(totalLines, 1));
    return result;
  }

  private pushText(text: string): void {
    if (text.length === 0) return;
    if (!this.done) this.keep(text);
    const count = countNewlines(text, 0, text.length);
    this.noteLastLine(count, (n) => afterNewline(text, 0, n));
    this.newlines += count;
    this.pos += text.length;
    this.endsWithNewline = text.charCodeAt(text.length - 1) === 10;
  }

  /** A valid chunk outside the kept part: counted without decoding; a cut sequence waits for the next chunk. */
  private countBytes(bytes: Buffer, counted: { end: number; units: number; ascii: boolean }, count: number): void {
    this.noteLastLine(count, (n) => {
      let i = -1;
      for (let k = 0; k < n; k++) i = bytes.indexOf(10, i + 1);
      return counted.ascii ? i + 1 : utf16Units(bytes, i + 1);
    });
    this.newlines += count;
    this.pos += counted.units;
    if (counted.end > 0) this.endsWithNewline = bytes[counted.end - 1] === 10;
    if (counted.end < bytes.length) this.carry = Buffer.from(bytes.subarray(counted.end));
  }

  /** Whether the kept part starts beyond a chunk of `units` units holding `newlines` newlines. */
  private startsAfter(units: number, newlines: number): boolean {
    if (this.started) return false;
    const { offset, selection } = this.plan;
    if (offset) return this.pos + units <= offset.offset;
    return this.newlines + newlines < (selection?.start ?? 1) - 1;
  }

  /** Records where `lastLine` ends when its newline is among this chunk's `count` newlines. */
  private noteLastLine(count: number, indexAfter: (n: number) => number): void {
    const n = this.lastLine === undefined ? 0 : this.lastLine - this.newlines;
    if (this.lastLineEnd === undefined && n >= 1 && n <= count) this.lastLineEnd = this.pos + indexAfter(n);
  }

  /** Keeps the requested part of one chunk; `this.pos` and `this.newlines` still describe the chunk's start. */
  private keep(text: string): void {
    let from = 0;
    if (!this.started) {
      from = this.findStart(text);
      if (from < 0) return;
    }
    let stop = text.length;
    let finished = false;
    if (this.lastLine !== undefined) {
      const at = afterNewline(text, from, this.lastLine - this.newlines - countNewlines(text, 0, from));
      if (at >= 0) [stop, finished] = [at, true];
    }
    if (this.plan.maxNewlines !== undefined) {
      const at = afterNewline(text, from, this.plan.maxNewlines - this.keptNewlines);
      if (at >= 0 && at <= stop) [stop, finished] = [at, true];
    }
    if (this.plan.maxUnits !== undefined && from + this.plan.maxUnits - this.keptUnits <= stop) {
      [stop, finished] = [from + this.plan.maxUnits - this.keptUnits, true];
    }
    const piece = text.slice(from, stop);
    this.keptUnits += piece.length;
    this.keptNewlines += countNewlines(piece, 0, piece.length);
    this.keptBytes += Buffer.byteLength(piece);
    if (this.keptBytes > this.plan.maxBytes) {
      const mib = this.plan.maxBytes / 1024 / 1024;
      throw new ResourceError("resource_too_large", `${this.plan.url}: the selected text is above ${mib} MiB; select fewer lines, e.g. :1-2000`);
    }
    this.parts.push(piece);
    this.done = finished;
  }

  /** Index in this chunk where the kept part starts, or -1 when it starts in a later chunk. */
  private findStart(text: string): number {
    const { selection, offset } = this.plan;
    let start: number;
    if (offset) {
      if (offset.offset >= this.pos + text.length) return -1;
      start = offset.offset - this.pos;
      this.startLine = this.newlines + countNewlines(text, 0, start) + 1;
      if (offset.end !== undefined && this.startLine > offset.end) {
        throw new ResourceError("invalid_resource_uri", `${this.plan.url}: offset ${offset.offset} is past the end of line ${offset.end}`);
      }
    } else {
      const line = selection?.start ?? 1;
      start = line - 1 <= this.newlines ? 0 : afterNewline(text, 0, line - 1 - this.newlines);
      if (start < 0) return -1;
      this.startLine = line;
    }
    this.started = true;
    this.startOffset = this.pos + start;
    return start;
  }
}
