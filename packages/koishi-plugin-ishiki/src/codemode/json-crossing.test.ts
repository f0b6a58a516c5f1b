import { describe, expect, it } from "vitest";
import { decodeJson, encodeJson, JsonCycleError } from "./json-crossing.js";

describe("CT-9 CT-12 JSON crossing on the host", () => {
  it("CT-9 encoding normalises host values as 04 EX-7 does", () => {
    const { text } = encodeJson({ d: new Date(0), b: 5n, u: undefined, n: Number.POSITIVE_INFINITY, buf: Buffer.from("hi"), list: [undefined] });
    expect(JSON.parse(text)).toEqual({ d: "1970-01-01T00:00:00.000Z", b: "5", n: null, buf: "aGk=", list: [null] });
    expect(encodeJson(undefined).text).toBe("null");
  });

  it("CT-9 a cycle names its path", () => {
    const root: Record<string, unknown> = { a: { "b c": [] } };
    ((root.a as Record<string, unknown[]>)["b c"]).push(root);
    expect(() => encodeJson(root)).toThrow(new JsonCycleError('result is not JSON-serialisable: cycle at $.a["b c"][0]'));
  });

  it("CT-9 __proto__ keys are dropped in both directions, also when spelled with escapes", () => {
    const hostile = JSON.parse('{"__proto__": {"x": 1}, "y": 2}');
    expect(encodeJson(hostile).text).toBe('{"y":2}');
    const decoded = decodeJson('{"\\u005f_proto__": {"x": 1}, "nested": {"__proto__": {"x": 1}}}').value as Record<string, Record<string, unknown>>;
    expect(Object.keys(decoded)).toEqual(["nested"]);
    expect(Object.keys(decoded.nested)).toEqual([]);
    expect(Object.getPrototypeOf(decoded.nested)).toBe(Object.prototype);
  });

  it("CT-12 sizes are UTF-8 bytes, with base64 data of media payloads at decoded size", () => {
    expect(decodeJson('"é"').bytes).toBe(4);
    const data = Buffer.alloc(300).toString("base64");
    const text = JSON.stringify({ type: "image", mimeType: "image/png", data });
    expect(decodeJson(text).bytes).toBe(Buffer.byteLength(text) - 400 + 300);
    const plain = JSON.stringify({ data });
    expect(decodeJson(plain).bytes).toBe(Buffer.byteLength(plain));
    const file = { type: "file", mediaType: "application/pdf", data: new Uint8Array(300) };
    expect(encodeJson(file).bytes).toBe(Buffer.byteLength(JSON.stringify({ ...file, data })) - 400 + 300);
  });
});
