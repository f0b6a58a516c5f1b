import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PAGE_LINES, PAGE_UNITS, countLines, pageOriginOf, pageText, type PageOrigin } from "./page.js";

const URL = "local://big.txt";

function wholeOrigin(text: string): PageOrigin {
  return pageOriginOf(text, { kind: "file", url: URL, totalLines: countLines(text), totalChars: text.length }, URL);
}

/** What a continuation re-read returns: the source text from `offset` (to the end of line `end`). */
function reread(source: string, offset: number, end?: number): PageOrigin & { text: string } {
  let stop = source.length;
  if (end !== undefined) {
    let i = -1;
    for (let k = 0; k < end; k++) {
      i = source.indexOf("\n", i + 1);
      if (i < 0) break;
    }
    if (i >= 0) stop = i + 1;
  }
  const text = source.slice(offset, stop);
  const line = countLines(source.slice(0, offset)) + (offset === 0 || source[offset - 1] === "\n" ? 1 : 0);
  const origin: PageOrigin = { url: URL, offset, line: Math.max(line, 1), totalLines: countLines(source), totalChars: source.length, selectedEnd: stop };
  if (end !== undefined) origin.end = end;
  return { ...origin, text };
}

const CONTINUE = /\nContinue: read\(\{url: "local:\/\/big\.txt#offset=(\d+)(?:&end=(\d+))?"\}\)$/;

describe("page budget", () => {
  it("RS-37 text of exactly 30,000 units or 2000 lines is shown whole without a trailer", () => {
    const units = "x".repeat(PAGE_UNITS);
    expect(pageText(units, wholeOrigin(units)).display).toBe(units);
    const lines = "a\n".repeat(PAGE_LINES);
    expect(pageText(lines, wholeOrigin(lines)).display).toBe(lines);
    const noNewline = `${"a\n".repeat(PAGE_LINES - 1)}a`;
    expect(pageText(noNewline, wholeOrigin(noNewline)).display).toBe(noNewline);
  });

  it("RS-36 RS-37 RS-38 30,001 units get a trailer and the display stays within 30,000 units", () => {
    const text = "y".repeat(PAGE_UNITS + 1);
    const page = pageText(text, wholeOrigin(text));
    expect(page.display.length).toBeLessThanOrEqual(PAGE_UNITS);
    expect(page.display.startsWith(page.body)).toBe(true);
    const trailer = page.display.slice(page.body.length + 1);
    expect(trailer).toBe(
      `[truncated: lines 1-1 of 1; characters 0-${page.next} of 30001]\nFull result: ${URL}\nContinue: read({url: "${URL}#offset=${page.next}"})`,
    );
    // the longest body: one more unit would break the budget
    expect(page.body.length + 1 + trailer.length).toBe(PAGE_UNITS);
  });

  it("RS-36 2001 lines page at a line end within 2000 display lines", () => {
    const text = Array.from({ length: PAGE_LINES + 1 }, (_, i) => `line ${i + 1}`).join("\n");
    const page = pageText(text, wholeOrigin(text));
    expect(countLines(page.display)).toBeLessThanOrEqual(PAGE_LINES);
    expect(page.body.endsWith("\n")).toBe(true);
    expect(countLines(page.body)).toBe(PAGE_LINES - 3);
    expect(page.display).toContain(`[truncated: lines 1-${PAGE_LINES - 3} of ${PAGE_LINES + 1}; characters 0-${page.next} of ${text.length}]`);
  });

  it("RS-38 a body ends at a line end when the page holds one; only a first overlong line is cut", () => {
    const text = `short\n${"z".repeat(40_000)}\n`;
    const first = pageText(text, wholeOrigin(text));
    expect(first.body).toBe("short\n");
    const rest = reread(text, first.next!);
    const second = pageText(rest.text, rest);
    expect(second.body).toMatch(/^z+$/);
    expect(second.display).toContain(`[truncated: lines 2-2 of 2; characters 6-${second.next} of ${text.length}]`);
  });

  it("RS-38 a cut never splits a surrogate pair", () => {
    for (let shift = 0; shift < 3; shift++) {
      const text = "a".repeat(shift) + "😀".repeat(PAGE_UNITS);
      const page = pageText(text, wholeOrigin(text));
      const last = page.body.charCodeAt(page.body.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
      expect(page.body.length + (text.length - page.body.length)).toBe(text.length);
    }
  });

  it("RS-37 a requested range end is kept as &end= and reaching line L ends the paging", () => {
    const source = Array.from({ length: 5000 }, (_, i) => `row ${i + 1}`).join("\n");
    const first = reread(source, 0, 4000);
    const page = pageText(first.text, first);
    const match = CONTINUE.exec(page.display);
    expect(match?.[2]).toBe("4000");
    let offset = Number(match![1]);
    let body = page.body;
    for (;;) {
      const next = reread(source, offset, 4000);
      const p = pageText(next.text, next);
      body += p.body;
      if (p.next === undefined) break;
      offset = p.next;
    }
    expect(body).toBe(first.text);
    expect(body.endsWith("row 4000\n")).toBe(true);
  });

  it("RS-37 a first page of a larger selection is paged even though its text fits", () => {
    const text = "abc\n".repeat(10);
    const origin: PageOrigin = { url: URL, offset: 100, line: 26, totalLines: 1000, totalChars: 4000, selectedEnd: 4000 };
    const page = pageText(text, origin);
    expect(page.display).toContain("[truncated: lines 26-35 of 1000; characters 100-140 of 4000]");
    expect(page.next).toBe(140);
  });

  it("RS-37 text without a FileSource pages on the given artifact URL", () => {
    const text = "q".repeat(PAGE_UNITS * 2);
    const page = pageText(text, pageOriginOf(text, undefined, "artifact://clock/abc"));
    expect(page.display).toContain("Full result: artifact://clock/abc\nContinue: read({url: \"artifact://clock/abc#offset=");
  });

  it("RS-39 concatenated pages rebuild any text exactly through any sequence of continuations", () => {
    const piece = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.constantFrom("\n", "\n\n", "😀", "𝔸𝔹", "中文", "\r\n"),
      fc.integer({ min: 1, max: 45_000 }).map((n) => "L".repeat(n)),
      fc.integer({ min: 1, max: 20_000 }).map((n) => "🎉".repeat(n)),
      fc.integer({ min: 1, max: 3000 }).map((n) => "x\n".repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.option(fc.integer({ min: 1, max: 6000 })), fc.nat(), (pieces, end, from) => {
        const source = pieces.join("");
        // a model may also start from any offset of its own (without a range end)
        const start = end === null ? from % (source.length + 1) : 0;
        const target = reread(source, start, end ?? undefined);
        let offset = start;
        let rebuilt = "";
        let pages = 0;
        for (;;) {
          const next = reread(source, offset, end ?? undefined);
          const page = pageText(next.text, next);
          expect(page.display.length).toBeLessThanOrEqual(PAGE_UNITS);
          expect(countLines(page.display)).toBeLessThanOrEqual(PAGE_LINES);
          rebuilt += page.body;
          if (page.next === undefined) break;
          expect(page.next).toBeGreaterThan(offset);
          const match = CONTINUE.exec(page.display);
          expect(Number(match?.[1])).toBe(page.next);
          expect(page.display).toContain(`; characters ${offset}-${page.next} of ${source.length}]`);
          offset = page.next;
          pages++;
          // a cut never leaves a lone high surrogate at the end of a body
          const last = page.body.charCodeAt(page.body.length - 1);
          if (last >= 0xd800 && last <= 0xdbff) expect(source.charCodeAt(offset) < 0xdc00 || source.charCodeAt(offset) > 0xdfff).toBe(true);
        }
        expect(rebuilt).toBe(target.text);
        expect(pages).toBeLessThan(200);
      }),
      { numRuns: 150 },
    );
  });
});
