import type { JSONSchema7 } from "@ai-sdk/provider";
import { inlineLocalRefs, isSchemaMap, mapValues } from "./schema-refs.js";

const UNSUPPORTED = new Set(["propertyNames", "additionalProperties", "uniqueItems", "$schema", "patternProperties", "$id", "$comment"]);

/**
 * Reduces a tool's JSON Schema to what Google's Generative AI accepts (spec 06 EN-39): local `$ref`s inlined
 * (`inlineLocalRefs`); `propertyNames`, `additionalProperties`, `uniqueItems`, `patternProperties`, `$schema`,
 * `$id` and `$comment` dropped; `type: [t, "null"]` becomes `type: t` with `nullable: true`, and several
 * types an `anyOf` of one type each; `const` becomes a one-value `enum` (strings) or just its type.
 */
export function sanitizeGeminiSchema(schema: JSONSchema7): JSONSchema7 {
  return reduce(inlineLocalRefs(schema)) as JSONSchema7;
}

function reduce(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(reduce);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (UNSUPPORTED.has(key)) continue;
    out[key] = isSchemaMap(key) ? mapValues(value, reduce) : reduce(value);
  }
  if ("const" in out) {
    const value = out.const;
    delete out.const;
    if (typeof value === "string") out.enum = [value];
    out.type ??= value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? "number" : typeof value;
  }
  if (Array.isArray(out.type)) return splitTypes(out, out.type as string[]);
  return out;
}

/** `type: [...]`, which Gemini rejects: one type (plus `nullable`) or an `anyOf` of single types. */
function splitTypes(node: Record<string, unknown>, types: string[]): Record<string, unknown> {
  const { type: _type, ...rest } = node;
  const concrete = types.filter((type) => type !== "null");
  const nullable = concrete.length < types.length ? { nullable: true } : {};
  if (concrete.length === 0) return { ...rest, type: "null" };
  if (concrete.length === 1) return { ...rest, type: concrete[0], ...nullable };
  return { ...rest, anyOf: concrete.map((type) => ({ type })), ...nullable };
}
