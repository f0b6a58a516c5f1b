import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ResourceError } from "./resource-error.js";
import { TextScan, type ScanPlan, type ScanResult } from "./text-scan.js";

const encoder = new TextEncoder();

/** The scan's result computed naively on the whole decoded string. */
function reference(bytes: Uint8Array, plan: ScanPlan): ScanResult | "error" {
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const breaks: number[] = [];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) breaks.push(i + 1);
  const totalLines = breaks.length + (text.length > 0 && !text.endsWith("\n") ? 1 : 0);
  const lastLine = plan.selection?.end ?? plan.offset?.end;
  const lineEnd = (line: number) => breaks[line - 1] ?? text.length;
  let start = 0;
  let startLine = 1;
  if (plan.selection) {
    if (plan.selection.start > totalLines) return "error";
    start = plan.selection.start === 1 ? 0 : breaks[plan.selection.start - 2];
    startLine = plan.selection.start;
  } else if (plan.offset) {
    if (plan.offset.offset > text.length) return "error";
    start = plan.offset.offset;
    startLine = breaks.filter((b) => b <= start).length + 1;
    if (start < text.length && plan.offset.end !== undefined && startLine > plan.offset.end) return "error";
    if (start === text.length) startLine = Math.max(1, Math.min(startLine, totalLines));
  }
  let stop = lastLine === undefined ? text.length : Math.max(start, lineEnd(lastLine));
  if (plan.maxNewlines !== undefined) {
    const within = breaks.filter((b) => b > start);
    if (within.length >= plan.maxNewlines) stop = Math.min(stop, within[plan.maxNewlines - 1]);
  }
  if (plan.maxUnits !== undefined) stop = Math.min(stop, start + plan.maxUnits);
  const result: ScanResult = {
    text: text.slice(start, stop),
    startOffset: start,
    startLine,
    endOffset: lastLine === undefined ? text.length : lineEnd(lastLine),
    totalLines,
    totalChars: text.length,
  };
  if (lastLine !== undefined) result.endLine = Math.min(lastLine, Math.max(totalLines, 1));
  return result;
}

function scan(bytes: Uint8Array, cuts: number[], plan: ScanPlan): ScanResult | "error" {
  const scanner = new TextScan(plan);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  try {
    for (const point of [...points, bytes.length]) {
      scanner.push(bytes.slice(from, point));
      from = point;
    }
    return scanner.finish();
  } catch (error) {
    if (error instanceof ResourceError) return "error";
    throw error;
  }
}

const piece = fc.oneof(
  fc.string({ maxLength: 30 }).map((s) => encoder.encode(s)),
  fc.constantFrom("\n", "\n\n", "😀", "中文", "é", "\uFEFF", "𝔸\n").map((s) => encoder.encode(s)),
  fc.constantFrom([0xff], [0xc3], [0xe4, 0xb8], [0xf0, 0x9f, 0x98], [0x80], [0xef, 0xbb, 0xbf]).map((b) => Uint8Array.from(b)),
  fc.integer({ min: 1, max: 3000 }).map((n) => encoder.encode("ab\n".repeat(n))),
);

const plan = fc.oneof(
  fc.record({ selection: fc.record({ start: fc.integer({ min: 1, max: 60 }), end: fc.option(fc.integer({ min: 60, max: 9000 }), { nil: undefined }) }) }),
  fc.record({ offset: fc.record({ offset: fc.nat({ max: 9000 }), end: fc.option(fc.integer({ min: 1, max: 4000 }), { nil: undefined }) }) }),
  fc.constant({}),
);

describe("TextScan", () => {
  it("RS-9 RS-11 RS-21 counting bytes and decoding agree with a whole-string reading for any chunking", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        plan,
        fc.option(fc.record({ maxUnits: fc.integer({ min: 1, max: 500 }), maxNewlines: fc.integer({ min: 1, max: 50 }) }), { nil: undefined }),
        (pieces, cuts, request, caps) => {
          const bytes = Uint8Array.from(pieces.flatMap((p) => [...p]));
          const full: ScanPlan = { url: "t://x", maxBytes: 1 << 30, ...request, ...caps };
          for (const key of Object.keys(full) as Array<keyof ScanPlan>) if (full[key] === undefined) delete full[key];
          if (full.selection?.end === undefined) delete full.selection?.end;
          if (full.offset?.end === undefined) delete full.offset?.end;
          expect(scan(bytes, cuts, full)).toEqual(reference(bytes, full));
        },
      ),
      { numRuns: 400 },
    );
  });
});
