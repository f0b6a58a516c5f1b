import YAML from "yaml";
import { readJson, argumentsCall, firstLine, snippet, trimNewlines, type BodyCall, type Read } from "./text-body.js";
import type { ToolCatalog } from "./text-catalog.js";
import { coerceText, coerceTree, propertiesOf, type ParameterSchema } from "./text-coerce.js";

const MAX_DEPTH = 8;

/**
 * The body of `<name>…</name>` (morph-xml, yaml-xml): parameter elements, YAML `key: value` lines or a JSON
 * object. A plain-text body fills the tool's only (or only required) parameter; otherwise it is a defect, never
 * an empty input.
 */
export function readElementBody(name: string, body: string, catalog: ToolCatalog): BodyCall {
  const schema = catalog.schema(name);
  let text = body.trim();
  if (text === "") return { toolName: name, input: {} };
  if (!text.includes("<") && /&lt;[\w]/.test(text)) text = decodeEntities(text);
  if (text.startsWith("{")) {
    const read = readJson(text);
    if ("defect" in read) return { toolName: name, defect: read.defect };
    return argumentsCall(name, read.value);
  }
  if (text.startsWith("<") && !text.startsWith("<![CDATA[")) {
    // Chat markup (`<at id="1"/> hi`) rather than parameters: parameter elements carry no attributes.
    const target = soleParameter(schema);
    const first = /^<([A-Za-z_][\w.:-]*)(\s[^>]*?)?\s*(\/?)>/.exec(text);
    if (target !== undefined && first !== null && !(first[1] in propertiesOf(schema)) && (first[2] !== undefined || first[3] === "/")) return { toolName: name, input: { [target]: coerceText(text, propertiesOf(schema)[target]) } };
    const read = readElements(text, schema, name);
    return "defect" in read ? { toolName: name, defect: read.defect } : { toolName: name, input: read.value };
  }
  const properties = propertiesOf(schema);
  let yaml: unknown;
  let yamlDefect: string | undefined;
  try {
    yaml = YAML.parse(text, { schema: "failsafe", uniqueKeys: false });
  } catch (error) {
    yamlDefect = `invalid YAML: ${firstLine(error)}`;
  }
  const mapping = yaml !== null && typeof yaml === "object" && !Array.isArray(yaml) ? (yaml as Record<string, unknown>) : undefined;
  if (mapping !== undefined && Object.keys(mapping).every((key) => key in properties)) return { toolName: name, input: coerceTree(mapping, schema) as Record<string, unknown> };
  const target = soleParameter(schema);
  if (target !== undefined && mapping === undefined && !(yamlDefect !== undefined && /^\s*[\w-]+\s*:/.test(text))) return { toolName: name, input: { [target]: coerceText(unwrapCdata(text), properties[target]) } };
  if (mapping !== undefined) return { toolName: name, input: coerceTree(mapping, schema) as Record<string, unknown> };
  if (yamlDefect !== undefined) return { toolName: name, defect: yamlDefect };
  return { toolName: name, defect: `the body of <${name}> is plain text, not parameters` };
}

/** The tool's only parameter, or its only required one: where a plain-text body belongs. */
function soleParameter(schema: ParameterSchema | undefined): string | undefined {
  const keys = Object.keys(propertiesOf(schema));
  if (keys.length === 1) return keys[0];
  const required = schema?.required ?? [];
  return required.length === 1 ? required[0] : undefined;
}

/** Sibling elements `<key>value</key>`; repeated keys make an array; nested elements make objects. */
function readElements(text: string, schema: ParameterSchema | undefined, parent: string, depth = 0): Read<Record<string, unknown>> {
  const entries: Array<[string, string]> = [];
  let at = 0;
  while (at < text.length) {
    const next = text.slice(at).search(/\S/);
    if (next < 0) break;
    at += next;
    const open = /^<([A-Za-z_][\w.:-]*)(\s[^>]*?)?\s*(\/?)>/.exec(text.slice(at));
    if (open === null) return { defect: `text outside parameter elements in <${parent}>: \`${snippet(text.slice(at))}\`` };
    const key = open[1];
    at += open[0].length;
    if (open[3] === "/") {
      entries.push([key, ""]);
      continue;
    }
    const close = matchingClose(text, key, at);
    if (close < 0) return { defect: `<${key}> is not closed (expected </${key}>)` };
    entries.push([key, text.slice(at, close)]);
    at = close + key.length + 3;
  }
  const properties = propertiesOf(schema);
  const grouped = new Map<string, string[]>();
  for (const [key, value] of entries) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  const out: Record<string, unknown> = {};
  for (const [key, values] of grouped) {
    const property = properties[key];
    if (values.length === 1) {
      const value = elementValue(values[0], property, key, depth);
      if (typeof value === "object" && value !== null && "defect" in value && Object.keys(value).length === 1) return value as { defect: string };
      out[key] = value;
    } else {
      const items = property?.items;
      out[key] = values.map((value) => elementValue(value, items, key, depth));
    }
  }
  return { value: out };
}

function elementValue(inner: string, schema: ParameterSchema | undefined, key: string, depth: number): unknown {
  const trimmed = inner.trim();
  const types = schema === undefined ? new Set<string>() : new Set([schema.type].flat());
  // Nesting deeper than any tool schema goes is text: hostile output must not cost a pass per level.
  if (depth < MAX_DEPTH && trimmed.startsWith("<") && !trimmed.startsWith("<![CDATA[") && /^<[A-Za-z_]/.test(trimmed) && (types.has("object") || types.has("array") || (schema === undefined && /<\/[\w.:-]+>\s*$/.test(trimmed)))) {
    const read = readElements(trimmed, types.has("array") ? undefined : schema, key, depth + 1);
    if ("value" in read) {
      if (types.has("array")) return Object.values(read.value).flatMap((value) => (Array.isArray(value) ? value : [value])).map((item) => (typeof item === "string" ? coerceText(item, schema?.items) : item));
      return read.value;
    }
  }
  return coerceText(decodeEntities(unwrapCdata(trimNewlines(inner))), schema);
}

function matchingClose(text: string, key: string, from: number): number {
  const openTag = new RegExp(`<${escapeRegExp(key)}(\\s[^>]*)?>`, "g");
  const closeTag = `</${key}>`;
  let depth = 1;
  let at = from;
  while (true) {
    const close = text.indexOf(closeTag, at);
    if (close < 0) return -1;
    openTag.lastIndex = at;
    let open = openTag.exec(text);
    while (open !== null && open.index < close) {
      depth += 1;
      open = openTag.exec(text);
    }
    depth -= 1;
    if (depth === 0) return close;
    at = close + closeTag.length;
  }
}

export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (match, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith("#x")) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith("#")) return String.fromCodePoint(Number(lower.slice(1)));
    return { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" }[lower] ?? match;
  });
}

function unwrapCdata(text: string): string {
  const match = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(text);
  return match === null ? text : match[1];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
