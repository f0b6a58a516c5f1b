import { quote } from "./quote.js";
import { ResourceError } from "./resource-error.js";

export interface LineSelection {
  start: number;
  end?: number;
}

const USAGE = "use :A-B, :A+N or :A";

function chunkError(base: string, chunk: string, reason: string): ResourceError {
  return new ResourceError("invalid_resource_uri", `${quote(`${base}:${chunk}`)}: ${reason}`);
}

function lineNumber(base: string, chunk: string, digits: string): number {
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) throw chunkError(base, chunk, `line number is above ${Number.MAX_SAFE_INTEGER}`);
  return value;
}

/** One chunk as lines relative to the range it applies to (1-based, inclusive). */
function parseChunk(base: string, chunk: string): LineSelection {
  if (chunk === "") throw chunkError(base, chunk, `empty line selector; ${USAGE}`);
  if (chunk === "raw") throw chunkError(base, chunk, "the :raw selector was removed; read the URL without it");
  if (chunk.startsWith("-")) throw chunkError(base, chunk, "line numbers cannot be negative; use :1-20");
  const match = /^(\d+)(?:([-+])(\d+))?$/.exec(chunk);
  if (!match) throw chunkError(base, chunk, `not a line selector; ${USAGE}`);
  const start = lineNumber(base, chunk, match[1]);
  if (start === 0) throw chunkError(base, chunk, "line numbers start at 1; use :1-20");
  if (match[2] === undefined) return { start };
  const second = lineNumber(base, chunk, match[3]);
  if (match[2] === "+") {
    if (second === 0) throw chunkError(base, chunk, "a line count must be at least 1; use :A+1");
    const end = start + second - 1;
    if (!Number.isSafeInteger(end)) throw chunkError(base, chunk, `line number is above ${Number.MAX_SAFE_INTEGER}`);
    return { start, end };
  }
  if (second === 0) throw chunkError(base, chunk, "line numbers start at 1; use :1-20");
  if (second < start) throw chunkError(base, chunk, `the range ends before it starts; use :${start}-${start}`);
  return { start, end: second };
}

/**
 * Parses a selector chain (`100-200:5+3`, without the leading colon) into absolute lines: each chunk counts
 * relative to the range before it (RS-9, RS-10). `base` names the URL in error messages. Whether the start
 * lies within the text is checked once the text is scanned.
 */
export function parseSelectors(base: string, chain: string): LineSelection {
  let range: LineSelection | undefined;
  for (const chunk of chain.split(":")) {
    const relative = parseChunk(base, chunk);
    if (!range) {
      range = relative;
      continue;
    }
    const start = range.start + relative.start - 1;
    if (range.end !== undefined && start > range.end) {
      throw chunkError(base, chunk, `line ${relative.start} is beyond the end (${range.end - range.start + 1} lines)`);
    }
    const end = relative.end === undefined ? range.end : range.start + relative.end - 1;
    range = { start, end: range.end === undefined || end === undefined ? end : Math.min(end, range.end) };
    if (range.end === undefined) delete range.end;
  }
  return range as LineSelection;
}
