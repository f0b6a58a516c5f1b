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

/** What a walk over a schema's parameter keys does with each key; `false` stops the walk. */
interface KeyVisitor {
  see(key: string): boolean;
}

/** Visits the parameter keys of a schema in document order; stops, returning false, when the visitor does. */
function walk(node: SchemaNode, depth: number, nesting: number, visitor: KeyVisitor): boolean {
  if (!node || typeof node === "boolean" || depth > MAX_DEPTH || nesting > MAX_NESTING) return true;
  const properties = node.properties;
  if (properties) {
    for (const key of Object.keys(properties)) {
      if (!visitor.see(key) || !walk(properties[key], depth + 1, nesting + 1, visitor)) return false;
    }
  }
  const items = node.items;
  if (Array.isArray(items)) {
    for (const item of items) if (!walk(item, depth, nesting + 1, visitor)) return false;
  } else if (items !== undefined && !walk(items, depth, nesting + 1, visitor)) return false;
  return walkAll(node.anyOf, depth, nesting, visitor) && walkAll(node.oneOf, depth, nesting, visitor) && walkAll(node.allOf, depth, nesting, visitor);
}

function walkAll(branches: readonly SchemaNode[] | undefined, depth: number, nesting: number, visitor: KeyVisitor): boolean {
  if (!Array.isArray(branches)) return true;
  for (const branch of branches) if (!walk(branch, depth, nesting + 1, visitor)) return false;
  return true;
}

/** Collects parameter names, first occurrence order. */
class KeyCollector implements KeyVisitor {
  readonly names = new Set<string>();
  see(key: string): boolean {
    this.names.add(key);
    return true;
  }
}

/** Follows a document's parameter names along a walk; `complete` once every one was met, and no other. */
class KeyMatcher implements KeyVisitor {
  private matched = 0;
  constructor(private readonly params: readonly string[]) {}
  get complete(): boolean {
    return this.matched === this.params.length;
  }
  see(key: string): boolean {
    const { params } = this;
    if (this.matched < params.length && params[this.matched] === key) {
      this.matched++;
      return true;
    }
    // A key seen before is no new parameter (first occurrence order); any other key is one the document lacks.
    for (let i = 0; i < this.matched; i++) if (params[i] === key) return true;
    return false;
  }
}

/** Parameter names of an input JSON Schema. */
export function parameterNames(schema: JSONSchema7): string[] {
  const collector = new KeyCollector();
  walk(schema, 0, 0, collector);
  return [...collector.names];
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
  const matcher = new KeyMatcher(document.params);
  return walk(schema, 0, 0, matcher) && matcher.complete;
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
