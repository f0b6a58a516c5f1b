import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { prettyJsonPieces } from "./pretty-json.js";

const joined = (value: unknown) => [...prettyJsonPieces(value)].join("");
const native = (value: unknown) => JSON.stringify(value, null, 2) ?? "null";

// Leaves include what the native serialiser drops or rewrites: undefined, functions, symbols, NaN, Dates.
const leaf = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom(undefined, Number.NaN, -0, Infinity, () => 1, Symbol("s"), new Date(0), "\ud800", "a\u2028b\n\"q\""),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object"), tie("large")),
  array: fc.array(tie("value"), { maxLength: 5 }),
  object: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("__proto__", "0", "10", "2", "toJSON")), tie("value"), { maxKeys: 5 }),
  // Containers past the streaming threshold, so batches and descent are exercised.
  large: fc.oneof(
    fc.array(leaf, { minLength: 60, maxLength: 300 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), leaf, { minKeys: 60, maxKeys: 300 }),
  ),
}));

describe("pretty JSON in pieces", () => {
  it("EX-7 EX-8 the pieces concatenate to the native pretty JSON", () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(joined(input)).toBe(native(input));
      }),
      // A counterexample holds hundreds of nodes: shrinking it would take minutes, the first one is readable enough.
      { numRuns: 300, endOnFailure: true },
    );
  });

  it("EX-8 a large container is cut into several pieces, nested ones too", () => {
    const rows = Array.from({ length: 2000 }, (_, id) => ({ id, name: `item-${id}`, at: new Date(id), gone: undefined }));
    const nested = { meta: { total: 2000 }, data: { page: [{ rows }] } };
    const pieces = [...prettyJsonPieces(nested)];
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join("")).toBe(native(nested));
    const members = Object.fromEntries(rows.map((row) => [`k${row.id}`, row.id % 3 === 0 ? undefined : row]));
    expect(joined(members)).toBe(native(members));
    expect(joined({ only: Object.fromEntries(rows.map((row) => [`k${row.id}`, undefined])) })).toBe(native({ only: {} }));
  });

  it("EX-7 top-level undefined and functions become null; toJSON results are followed", () => {
    expect(joined(undefined)).toBe("null");
    expect(joined(() => 1)).toBe("null");
    const custom = { toJSON: () => Array.from({ length: 100 }, (_, i) => ({ i })) };
    expect(joined({ custom })).toBe(native({ custom }));
  });

  it("EX-7 BigInt and cycles throw the native TypeError, also inside batches and deep nesting", () => {
    expect(() => joined({ n: 1n })).toThrow(TypeError);
    const cyclic: Record<string, unknown> = { rows: Array.from({ length: 100 }, (_, i) => ({ i })) };
    (cyclic.rows as Array<Record<string, unknown>>)[70].back = cyclic;
    expect(() => joined(cyclic)).toThrow(TypeError);
    let chain: Record<string, unknown> = { end: Array.from({ length: 100 }, (_, i) => i) };
    const top = chain;
    for (let i = 0; i < 20; i++) chain = chain.next = { end: [] } as Record<string, unknown>;
    chain.loop = top;
    expect(() => joined(top)).toThrow(TypeError);
  });
});
