import type { JSONSchema7 } from "@ai-sdk/provider";

const UNSUPPORTED = new Set(["propertyNames", "additionalProperties", "uniqueItems", "$schema"]);

/**
 * Reduces a tool's JSON Schema to what Google's Generative AI accepts (spec 06 EN-39): drops `propertyNames`,
 * `additionalProperties`, `uniqueItems` and `$schema`, and inlines local `$ref`s (`#`, `#/$defs/…`,
 * `#/definitions/…`); a recursive reference is cut to an empty schema rather than looping.
 */
export function sanitizeGeminiSchema(schema: JSONSchema7): JSONSchema7 {
  const root = schema as Record<string, unknown>;
  const visit = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, seen));
    if (typeof node !== "object" || node === null) return node;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string") {
      const ref = record.$ref;
      const target = resolvePointer(root, ref);
      if (target === undefined || seen.includes(ref)) return {};
      return visit(target, [...seen, ref]);
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (UNSUPPORTED.has(key) || key === "$defs" || key === "definitions") continue;
      out[key] = key === "properties" ? mapValues(value, (item) => visit(item, seen)) : visit(value, seen);
    }
    return out;
  };
  return visit(schema, []) as JSONSchema7;
}

function mapValues(value: unknown, map: (item: unknown) => unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, map(item)]));
}

function resolvePointer(root: Record<string, unknown>, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
