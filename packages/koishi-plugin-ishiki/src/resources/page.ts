import type { FileSource } from "./file-source.js";

/** The page budget a displayed body and its continuation note share (RS-36, QA-17). */
export const PAGE_LINES = 2000;
export const PAGE_UNITS = 30_000;
/** Lines the trailer takes from the line budget. */
const TRAILER_LINES = 3;

/** Where a text sits in its source: everything a trailer and a continuation need. */
export interface PageOrigin {
  /** Named by `Full result:` and continued with `#offset=`. */
  url: string;
  /** UTF-16 offset of the text's first unit, and the 1-based line holding it. */
  offset: number;
  line: number;
  /** The requested last line, repeated as `&end=` in continuations. */
  end?: number;
  totalLines: number;
  totalChars: number;
  /** Where the requested text ends: beyond `offset + text.length` when the text is only a first page. */
  selectedEnd: number;
}

export interface TextPage {
  /** What the model sees: the body, and the trailer when the text did not fit. */
  display: string;
  body: string;
  /** The continuation offset, when there is more to read. */
  next?: number;
}

/** Lines of a text: `\n`-separated, and a trailing `\n` starts no line. */
export function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return count + (text.length > 0 && !text.endsWith("\n") ? 1 : 0);
}

/** The origin of a `read` text: its FileSource, or for other text the whole of it at `url` (an artifact). */
export function pageOriginOf(text: string, source: FileSource | undefined, url: string): PageOrigin {
  if (!source) return { url, offset: 0, line: 1, totalLines: countLines(text), totalChars: text.length, selectedEnd: text.length };
  const offset = source.offset ?? 0;
  const origin: PageOrigin = {
    url: source.url,
    offset,
    line: source.range?.start ?? 1,
    totalLines: source.totalLines,
    totalChars: source.totalChars,
    selectedEnd: source.selectedEnd ?? offset + text.length,
  };
  if (source.range?.end !== undefined) origin.end = source.range.end;
  return origin;
}

function trailer(origin: PageOrigin, lastLine: number, next: number): string {
  const continuation = `${origin.url}#offset=${next}${origin.end === undefined ? "" : `&end=${origin.end}`}`;
  return (
    `[truncated: lines ${origin.line}-${lastLine} of ${origin.totalLines}; characters ${origin.offset}-${next} of ${origin.totalChars}]\n` +
    `Full result: ${origin.url}\n` +
    `Continue: read({url: ${JSON.stringify(continuation)}})`
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Where the body ends for a given unit allowance: after the last line end the allowance and the line budget
 * hold; only a first line longer than the allowance is cut mid-line (leaving a unit for the separating `\n`),
 * and never between the halves of a surrogate pair (RS-38).
 */
function cutFor(text: string, units: number): number {
  let lineLimit = text.length;
  let newlines = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < units; i = text.indexOf("\n", i + 1)) {
    if (++newlines === PAGE_LINES - TRAILER_LINES) {
      lineLimit = i + 1;
      break;
    }
  }
  const window = Math.min(units, lineLimit, text.length);
  const lastNewline = text.lastIndexOf("\n", window - 1);
  if (lastNewline >= 0) return lastNewline + 1;
  let cut = Math.max(1, Math.min(text.length, units - 1));
  if (cut > 1 && isHighSurrogate(text.charCodeAt(cut - 1)) && isLowSurrogate(text.charCodeAt(cut))) cut--;
  return cut;
}

/**
 * The model's page of a text (RS-36..RS-39): the whole text when it is complete and fits 2000 lines and
 * 30,000 UTF-16 units; otherwise the longest body that fits together with the trailer
 * `[truncated: …]` / `Full result:` / `Continue: read({url: "<url>#offset=<y>[&end=<L>]"})`.
 * Concatenating the bodies of successive continuations reproduces the text exactly.
 */
export function pageText(text: string, origin: PageOrigin): TextPage {
  const complete = origin.offset + text.length >= origin.selectedEnd;
  if (complete && text.length <= PAGE_UNITS && countLines(text) <= PAGE_LINES) return { display: text, body: text };
  const build = (trailerUnits: number) => {
    const cut = cutFor(text, PAGE_UNITS - trailerUnits);
    const body = text.slice(0, cut);
    let lastLine = origin.line;
    for (let i = body.indexOf("\n"); i >= 0 && i < cut - 1; i = body.indexOf("\n", i + 1)) lastLine++;
    const note = trailer(origin, lastLine, origin.offset + cut);
    const display = body.endsWith("\n") ? body + note : `${body}\n${note}`;
    return { page: { display, body, next: origin.offset + cut }, trailerUnits: note.length };
  };
  // The trailer's digits depend on the cut: start from an upper bound, then retry with the actual length.
  let best = build(trailer(origin, origin.line + PAGE_LINES, origin.offset + Math.min(text.length, PAGE_UNITS)).length);
  for (let attempt = 0; attempt < 3; attempt++) {
    const next = build(best.trailerUnits);
    if (next.page.display.length > PAGE_UNITS || next.page.body.length <= best.page.body.length) break;
    best = next;
  }
  return best.page;
}
