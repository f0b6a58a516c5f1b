import { jsonrepair } from "jsonrepair";

/** The part of JSON Schema that decides how parameter text becomes a value. */
export interface ParameterSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: ParameterSchema[];
  oneOf?: ParameterSchema[];
  items?: ParameterSchema;
  properties?: Record<string, ParameterSchema>;
  required?: string[];
  description?: string;
}

/** The JSON types a schema allows, empty when it says nothing. */
export function typesOf(schema: ParameterSchema | undefined): Set<string> {
  const types = new Set<string>();
  if (schema === undefined) return types;
  if (typeof schema.type === "string") types.add(schema.type);
  else if (Array.isArray(schema.type)) for (const type of schema.type) types.add(type);
  for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) for (const type of typesOf(member)) types.add(type);
  for (const value of [...(schema.enum ?? []), ...(schema.const === undefined ? [] : [schema.const])]) types.add(value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value);
  if (types.has("integer")) types.add("number");
  return types;
}

/** The item schema of an array schema (also inside anyOf/oneOf). */
export function itemsOf(schema: ParameterSchema | undefined): ParameterSchema | undefined {
  if (schema === undefined) return undefined;
  return schema.items ?? [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((member) => member.items !== undefined)?.items;
}

/**
 * Parameter text (an XML element's or YAML scalar's content) as the value its schema asks for: strings stay
 * text, `null`/`true`/numbers become JSON values where the schema allows them (a `{"type": "null"}` parameter
 * gets `null`, not `"null"`), objects and arrays are read as JSON (repaired if need be), and a plain line for
 * an array of strings becomes a one-item array. Without a schema, text that is JSON becomes its value.
 */
export function coerceText(text: string, schema: ParameterSchema | undefined): unknown {
  const types = typesOf(schema);
  const trimmed = text.trim();
  if (types.size === 0) return readJsonValue(trimmed) ?? text;
  if (types.has("null") && /^(null|none|~)$/i.test(trimmed)) return null;
  if (types.has("boolean") && /^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === "true";
  if (types.has("number") && trimmed !== "" && Number.isFinite(Number(trimmed))) return Number(trimmed);
  if ((types.has("object") || types.has("array")) && /^[[{]/.test(trimmed)) {
    const value = readJsonValue(trimmed);
    if (value !== undefined && (types.has(Array.isArray(value) ? "array" : "object"))) return value;
  }
  if (types.has("string")) return text;
  if (types.has("array") && trimmed !== "") {
    const items = itemsOf(schema);
    return [coerceText(trimmed, items)];
  }
  return readJsonValue(trimmed) ?? text;
}

/**
 * A tree of strings (YAML read with the failsafe schema, or XML children) typed by its schema: each string leaf
 * goes through `coerceText`, so a value never changes type behind the schema's back (`id: 007` stays "007").
 */
export function coerceTree(value: unknown, schema: ParameterSchema | undefined): unknown {
  if (typeof value === "string") return coerceText(value, schema);
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    const array = value.map((item) => coerceTree(item, items));
    return typesOf(schema).has("string") && !typesOf(schema).has("array") ? JSON.stringify(array) : array;
  }
  if (value !== null && typeof value === "object") {
    const properties = propertiesOf(schema);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, coerceTree(item, properties[key])]));
  }
  return value;
}

/**
 * JSON arguments typed by the schema where a model quoted a value the schema does not allow as a string
 * (`"limit": "5"`, `"repeat": "null"`): such strings go through `coerceText`; everything else is kept.
 */
export function coerceQuoted(value: unknown, schema: ParameterSchema | undefined): unknown {
  if (typeof value === "string") return typesOf(schema).size > 0 && !typesOf(schema).has("string") ? coerceText(value, schema) : value;
  if (Array.isArray(value)) return value.map((item) => coerceQuoted(item, itemsOf(schema)));
  if (value !== null && typeof value === "object") {
    const properties = propertiesOf(schema);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, coerceQuoted(item, properties[key])]));
  }
  return value;
}

export function propertiesOf(schema: ParameterSchema | undefined): Record<string, ParameterSchema> {
  if (schema === undefined) return {};
  return schema.properties ?? Object.assign({}, ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map((member) => member.properties ?? {}));
}

function readJsonValue(text: string): unknown {
  if (!/^[[{"\d\-tfn]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    if (!/^[[{]/.test(text)) return undefined;
    try {
      return JSON.parse(jsonrepair(text));
    } catch {
      return undefined;
    }
  }
}
