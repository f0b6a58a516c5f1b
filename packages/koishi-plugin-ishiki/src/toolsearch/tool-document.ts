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

/** Visits the parameter keys of a schema in document order; stops, returning false, when `visit` does. */
function walk(node: SchemaNode, depth: number, nesting: number, visit: (key: string) => boolean): boolean {
  if (!node || typeof node === "boolean" || depth > MAX_DEPTH || nesting > MAX_NESTING) return true;
  const properties = node.properties;
  if (properties) {
    for (const key in properties) {
      if (!Object.hasOwn(properties, key)) continue;
      if (!visit(key) || !walk(properties[key], depth + 1, nesting + 1, visit)) return false;
    }
  }
  const items = node.items;
  if (Array.isArray(items)) {
    for (const item of items) if (!walk(item, depth, nesting + 1, visit)) return false;
  } else if (items !== undefined && !walk(items, depth, nesting + 1, visit)) return false;
  return walkAll(node.anyOf, depth, nesting, visit) && walkAll(node.oneOf, depth, nesting, visit) && walkAll(node.allOf, depth, nesting, visit);
}

function walkAll(branches: readonly SchemaNode[] | undefined, depth: number, nesting: number, visit: (key: string) => boolean): boolean {
  if (!Array.isArray(branches)) return true;
  for (const branch of branches) if (!walk(branch, depth, nesting + 1, visit)) return false;
  return true;
}

/** Parameter names of an input JSON Schema. */
export function parameterNames(schema: JSONSchema7): string[] {
  const names = new Set<string>();
  walk(schema, 0, 0, (key) => {
    names.add(key);
    return true;
  });
  return [...names];
}

/**
 * Whether `tool` reads as `document` (issue 19): the check a runtime makes against a shared index instead of
 * building a document of its own for every tool at every creation. False when the schema is lazy (a promise):
 * only reading the document tells then.
 */
export function describesTool(document: ToolDocument, tool: Tool): boolean {
  if ((typeof tool.description === "string" ? tool.description : "") !== document.description) return false;
  const schema = asSchema(tool.inputSchema).jsonSchema;
  if (isPromiseLike(schema)) return false;
  const params = document.params;
  let matched = 0;
  const complete = walk(schema, 0, 0, (key) => {
    if (matched < params.length && params[matched] === key) {
      matched++;
      return true;
    }
    // A key seen before is no new parameter (first occurrence order); any other key is one `document` lacks.
    for (let i = 0; i < matched; i++) if (params[i] === key) return true;
    return false;
  });
  return complete && matched === params.length;
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
