import { describe, expect, it } from "vitest";
import { decodeJson, encodeJson, JsonCycleError, JsonDepthError, nestsDeeper } from "./json-crossing.js";
import { CROSSING_DEPTH, SIDE_MARK, SIDE_STRING_UNITS } from "./worker/protocol.js";

const text = (json: string) => ({ json, strings: [] });
/** The value a crossing stands for, with side strings put back (as the guest's decode does). */
const expand = (crossing: { json: string; strings: readonly string[] }) =>
  JSON.parse(crossing.json, (_key, value: unknown) =>
    typeof value === "string" && /^\ue000\d+$/.test(value) ? (crossing.strings[Number(value.slice(1))] ?? value) : value,
  ) as unknown;

describe("CT-9 CT-12 JSON crossing on the host", () => {
  it("CT-9 encoding normalises host values as 04 EX-7 does", () => {
    const { json } = encodeJson({ d: new Date(0), b: 5n, u: undefined, n: Number.POSITIVE_INFINITY, buf: Buffer.from("hi"), list: [undefined] });
    expect(JSON.parse(json)).toEqual({ d: "1970-01-01T00:00:00.000Z", b: "5", n: null, buf: "aGk=", list: [null] });
    expect(encodeJson(undefined).json).toBe("null");
  });

  it("CT-9 a cycle names its path", () => {
    const root: Record<string, unknown> = { a: { "b c": [] } };
    ((root.a as Record<string, unknown[]>)["b c"]).push(root);
    expect(() => encodeJson(root)).toThrow(new JsonCycleError('result is not JSON-serialisable: cycle at $.a["b c"][0]'));
  });

  it("CT-9 __proto__ keys are dropped in both directions, also when spelled with escapes", () => {
    const hostile = JSON.parse('{"__proto__": {"x": 1}, "y": 2}');
    expect(encodeJson(hostile).json).toBe('{"y":2}');
    const decoded = decodeJson(text('{"\\u005f_proto__": {"x": 1}, "nested": {"__proto__": {"x": 1}}}')).value as Record<string, Record<string, unknown>>;
    expect(Object.keys(decoded)).toEqual(["nested"]);
    expect(Object.keys(decoded.nested)).toEqual([]);
    expect(Object.getPrototypeOf(decoded.nested)).toBe(Object.prototype);
  });

  it("CT-12 sizes are UTF-8 bytes, with base64 data of media payloads at decoded size", () => {
    expect(decodeJson(text('"é"')).bytes).toBe(4);
    const data = Buffer.alloc(300).toString("base64");
    const json = JSON.stringify({ type: "image", mimeType: "image/png", data });
    expect(decodeJson(text(json)).bytes).toBe(Buffer.byteLength(json) - 400 + 300);
    const plain = JSON.stringify({ data });
    expect(decodeJson(text(plain)).bytes).toBe(Buffer.byteLength(plain));
    const file = { type: "file", mediaType: "application/pdf", data: new Uint8Array(300) };
    expect(encodeJson(file).bytes).toBe(Buffer.byteLength(JSON.stringify({ ...file, data })) - 400 + 300);
  });

  it("CT-12 long strings cross aside and count their UTF-8 bytes; a large base64 payload counts its decoded size", () => {
    const long = "é".repeat(SIDE_STRING_UNITS);
    const encoded = encodeJson({ a: long, b: [long] });
    expect(encoded.strings).toEqual([long, long]);
    expect(expand(encoded)).toEqual({ a: long, b: [long] });
    expect(encoded.bytes).toBe(Buffer.byteLength(JSON.stringify({ a: long, b: [long] })));
    const data = Buffer.alloc(30_000).toString("base64");
    const media = encodeJson({ type: "image", mimeType: "image/png", data });
    expect(media.strings).toEqual([data]);
    expect(decodeJson(media).bytes).toBe(media.bytes);
    expect(media.bytes).toBe(Buffer.byteLength(JSON.stringify({ type: "image", mimeType: "image/png", data })) - data.length + 30_000);
  });

  it("CT-9 strings that look like markers, or carry NULs or lone surrogates, keep their exact text", () => {
    const tricky = [`${SIDE_MARK}0`, `${SIDE_MARK}`, `${SIDE_MARK}1\u0000`, "\u0000".repeat(SIDE_STRING_UNITS), "\ud800".repeat(SIDE_STRING_UNITS), `${SIDE_MARK}x`];
    const encoded = encodeJson(tricky);
    expect(expand(encoded)).toEqual(tricky);
    expect(decodeJson(encoded).value).toEqual(tricky);
    // A guest that forges or repeats markers gets its own strings back, and pays for every copy.
    const forged = decodeJson({ json: JSON.stringify([`${SIDE_MARK}0`, `${SIDE_MARK}0`, `${SIDE_MARK}7`]), strings: ["x".repeat(100)] });
    expect(forged.value).toEqual(["x".repeat(100), "x".repeat(100), `${SIDE_MARK}7`]);
    expect(forged.bytes).toBeGreaterThan(200);
  });

  it("issue 16: nesting past CROSSING_DEPTH fails in both directions without a stack overflow", () => {
    for (const depth of [CROSSING_DEPTH + 1, 8_000, 100_000, 1_000_000]) {
      const json = `${"[".repeat(depth)}"\\u0001"${"]".repeat(depth)}`;
      expect(() => decodeJson(text(json))).toThrow(JsonDepthError);
      expect(() => decodeJson(text(`{"data":${json},"mimeType":"x"}`))).toThrow(JsonDepthError);
      let value: unknown = "\u0001";
      for (let i = 0; i < depth; i++) value = [value];
      expect(() => encodeJson(value)).toThrow(JsonDepthError);
    }
    const ok = `${"[".repeat(CROSSING_DEPTH)}"\\u0001"${"]".repeat(CROSSING_DEPTH)}`;
    expect(decodeJson(text(ok)).bytes).toBe(ok.length);
    // Brackets inside strings do not count as nesting.
    expect(nestsDeeper(JSON.stringify(["[".repeat(5000)]), CROSSING_DEPTH)).toBe(false);
    expect(nestsDeeper(JSON.stringify([`\\"${"{".repeat(5000)}`]), CROSSING_DEPTH)).toBe(false);
  });

  it("issue 16: a deep cycle reports its depth, not a stack overflow", () => {
    const root: unknown[] = [];
    let inner = root;
    for (let i = 0; i < 50_000; i++) inner = inner[0] = [] as unknown[];
    inner.push(root);
    expect(() => encodeJson(root)).toThrow(JsonDepthError);
  });
});
