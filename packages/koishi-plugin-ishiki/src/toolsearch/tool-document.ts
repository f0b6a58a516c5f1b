import { asSchema, type JSONSchema7, type Tool } from "ai";

/** What the search index knows about one tool (spec 05 CT-23). */
export interface ToolDocument {
  readonly name: string;
  readonly description: string;
  /** Parameter names from the input JSON Schema, nested object keys included, first occurrence order. */
  readonly params: readonly string[];
}

type SchemaNode = JSONSchema7 | boolean | undefined;

// Nested keys (`entities[].entityType`) are searchable too, but deeply nested payload shapes are noise.
const MAX_DEPTH = 3;

// `items` and `anyOf`/`oneOf`/`allOf` do not deepen the key path, but a hostile schema can nest them without end.
const MAX_NESTING = 32;

function collect(node: SchemaNode, depth: number, nesting: number, into: Set<string>): void {
  if (!node || typeof node === "boolean" || depth > MAX_DEPTH || nesting > MAX_NESTING) return;
  const properties = node.properties;
  if (properties) {
    for (const key in properties) {
      if (!Object.hasOwn(properties, key)) continue;
      into.add(key);
      collect(properties[key], depth + 1, nesting + 1, into);
    }
  }
  const items = node.items;
  if (Array.isArray(items)) for (const item of items) collect(item, depth, nesting + 1, into);
  else if (items !== undefined) collect(items, depth, nesting + 1, into);
  for (const branches of [node.anyOf, node.oneOf, node.allOf]) {
    if (Array.isArray(branches)) for (const branch of branches) collect(branch, depth, nesting + 1, into);
  }
}

/** Parameter names of an input JSON Schema. */
export function parameterNames(schema: JSONSchema7): string[] {
  const names = new Set<string>();
  collect(schema, 0, 0, names);
  return [...names];
}

/**
 * Reads a tool's searchable document. The AI SDK may hold the JSON Schema behind a promise (lazy schemas), hence
 * the result is a promise only when the schema is one.
 */
export function readToolDocument(name: string, tool: Tool): ToolDocument | Promise<ToolDocument> {
  // A description computed from per-call context cannot be known here; such tools are found by name and params.
  const description = typeof tool.description === "string" ? tool.description : "";
  const schema = asSchema(tool.inputSchema).jsonSchema;
  if (isPromiseLike(schema)) return Promise.resolve(schema).then((resolved) => ({ name, description, params: parameterNames(resolved) }));
  return { name, description, params: parameterNames(schema) };
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === "function";
}
