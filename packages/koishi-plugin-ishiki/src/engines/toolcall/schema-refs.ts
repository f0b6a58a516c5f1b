/**
 * A JSON Schema with its local `$ref`s (`#`, `#/$defs/…`, `#/definitions/…`) replaced by their targets and the
 * `$defs`/`definitions` tables dropped, for readers that do not follow references: Gemini's schema subset
 * (EN-39) and the v3 catalog (EN-41). A recursive reference is cut to an empty schema rather than looping; a
 * reference that does not resolve becomes an empty schema too. Names under `properties` are data, never
 * keywords.
 */
export function inlineLocalRefs(schema: unknown): unknown {
  const root = schema as Record<string, unknown>;
  const visit = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, seen));
    if (typeof node !== "object" || node === null) return node;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string") {
      const ref = record.$ref;
      const target = resolvePointer(root, ref);
      if (target === undefined || seen.includes(ref)) return {};
      const { $ref: _ref, ...siblings } = record;
      const inlined = visit(target, [...seen, ref]);
      // Siblings of `$ref` (a description, say) stay beside the target's keywords.
      return Object.keys(siblings).length === 0 ? inlined : { ...(inlined as object), ...(visit(siblings, seen) as object) };
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (key === "$defs" || key === "definitions") continue;
      out[key] = isSchemaMap(key) ? mapValues(value, (item) => visit(item, seen)) : visit(value, seen);
    }
    return out;
  };
  return visit(schema, []);
}

/** Keywords whose value maps names (data) to schemas. */
export function isSchemaMap(key: string): boolean {
  return key === "properties" || key === "patternProperties";
}

export function mapValues(value: unknown, map: (item: unknown) => unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, map(item)]));
}

function resolvePointer(root: Record<string, unknown>, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
