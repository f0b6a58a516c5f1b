/** A JSON Schema as tools carry it (draft 2020-12 / draft-07 subset); unknown keywords are ignored. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

type SchemaObject = { readonly [keyword: string]: unknown };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const INDENT = "  ";

/** A property key as TypeScript source: bare when it is an identifier, quoted otherwise. */
export function propertyKey(key: string): string {
  return IDENTIFIER.test(key) ? key : JSON.stringify(key);
}

/** Text made safe inside a `/** ... *\/` comment, one entry per line. */
export function docLines(text: string): string[] {
  return text
    .replaceAll("*/", "*\\/")
    .split(/\r?\n/)
    .map((line) => line.trimEnd());
}

/**
 * The TypeScript type of a JSON Schema (spec 05 CT-5): objects with required/optional keys, `enum`/`const` as
 * literal unions, arrays and tuples, `anyOf`/`oneOf` as unions, `allOf` as intersections,
 * `additionalProperties` as an index signature, nullable types, local `$ref`s; anything else is `unknown`.
 * Pure and deterministic: the same schema always gives the same text.
 */
export function schemaToType(schema: JsonSchema): string {
  return typeOf(schema, 0, schema, []);
}

function typeOf(schema: JsonSchema, depth: number, root: JsonSchema, seen: readonly string[]): string {
  if (schema === true) return "unknown";
  if (schema === false) return "never";
  if (typeof schema !== "object" || schema === null) return "unknown";
  const ref = schema.$ref;
  if (typeof ref === "string") {
    const target = resolveRef(root, ref);
    return target === undefined || seen.includes(ref) ? "unknown" : typeOf(target, depth, root, [...seen, ref]);
  }
  return withNull(baseType(schema, depth, root, seen), schema.nullable === true);
}

function baseType(schema: SchemaObject, depth: number, root: JsonSchema, seen: readonly string[]): string {
  const recurse = (child: unknown) => typeOf(child as JsonSchema, depth, root, seen);
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const alternatives = (Array.isArray(schema.anyOf) ? schema.anyOf : undefined) ?? (Array.isArray(schema.oneOf) ? schema.oneOf : undefined);
  if (alternatives) return union(alternatives.map(recurse));
  if (Array.isArray(schema.allOf)) return intersection(schema.allOf.map(recurse));
  const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : inferTypes(schema);
  if (types.length === 0) return "unknown";
  return union(types.map((type) => typeName(String(type), schema, depth, root, seen)));
}

/** Keywords imply the type when `type` is missing (common in hand-written schemas). */
function inferTypes(schema: SchemaObject): string[] {
  if ("properties" in schema || "additionalProperties" in schema || "required" in schema) return ["object"];
  if ("items" in schema || "prefixItems" in schema) return ["array"];
  return [];
}

function typeName(type: string, schema: SchemaObject, depth: number, root: JsonSchema, seen: readonly string[]): string {
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return arrayType(schema, depth, root, seen);
    case "object":
      return objectType(schema, depth, root, seen);
    default:
      return "unknown";
  }
}

function arrayType(schema: SchemaObject, depth: number, root: JsonSchema, seen: readonly string[]): string {
  const recurse = (child: unknown) => typeOf(child as JsonSchema, depth, root, seen);
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple) return `[${tuple.map(recurse).join(", ")}]`;
  const item = schema.items === undefined ? "unknown" : recurse(schema.items);
  return isCompound(item) ? `(${item})[]` : `${item}[]`;
}

function objectType(schema: SchemaObject, depth: number, root: JsonSchema, seen: readonly string[]): string {
  const properties = (typeof schema.properties === "object" && schema.properties !== null ? schema.properties : {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const extra = schema.additionalProperties;
  const members: string[] = [];
  const inner = INDENT.repeat(depth + 1);
  for (const [key, child] of Object.entries(properties)) {
    const description = typeof child === "object" && typeof child.description === "string" ? child.description : undefined;
    if (description) members.push(...docComment(description, inner));
    const optional = required.has(key) ? "" : "?";
    members.push(`${inner}${propertyKey(key)}${optional}: ${typeOf(child, depth + 1, root, seen)};`);
  }
  if (extra !== undefined && extra !== false) {
    members.push(`${inner}[key: string]: ${extra === true ? "unknown" : typeOf(extra as JsonSchema, depth + 1, root, seen)};`);
  }
  if (members.length === 0) return "{}";
  return `{\n${members.join("\n")}\n${INDENT.repeat(depth)}}`;
}

export function docComment(text: string, indent: string): string[] {
  const lines = docLines(text);
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`)), `${indent} */`];
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === "boolean" || (typeof node === "object" && node !== null) ? (node as JsonSchema) : undefined;
}

function literal(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}

/** Whether a type has a `|` or `&` outside any braces, brackets, parentheses or string literal. */
function isCompound(type: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < type.length; i++) {
    const char = type[i];
    if (quoted) {
      if (char === "\\") i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if ("{[(".includes(char)) depth++;
    else if ("}])".includes(char)) depth--;
    else if (depth === 0 && (char === "|" || char === "&")) return true;
  }
  return false;
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 0 ? "never" : unique.join(" | ");
}

function intersection(types: string[]): string {
  const unique = [...new Set(types)].filter((type) => type !== "unknown");
  if (unique.length === 0) return "unknown";
  return unique.map((type) => (isCompound(type) ? `(${type})` : type)).join(" & ");
}

function withNull(type: string, nullable: boolean): string {
  if (!nullable || type === "unknown" || type === "null" || type.endsWith(" | null")) return type;
  return `${type} | null`;
}
