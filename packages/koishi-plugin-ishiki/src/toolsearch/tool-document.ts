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

function collect(node: SchemaNode, depth: number, into: Set<string>): void {
  if (!node || typeof node === "boolean" || depth > MAX_DEPTH) return;
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    into.add(key);
    collect(child, depth + 1, into);
  }
  const items = Array.isArray(node.items) ? node.items : [node.items];
  for (const item of items) collect(item, depth, into);
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) collect(branch, depth, into);
}

/** Parameter names of an input JSON Schema. */
export function parameterNames(schema: JSONSchema7): string[] {
  const names = new Set<string>();
  collect(schema, 0, names);
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
