import { jsonrepair } from "jsonrepair";
import YAML from "yaml";
import { coerceText, coerceTree, propertiesOf, type ParameterSchema } from "./text-coerce.js";
import { jsonIsClosed } from "./text-json-extent.js";

/** The tools of one model call: names and input schemas. */
export class ToolCatalog {
  private readonly schemas: ReadonlyMap<string, ParameterSchema>;

  public constructor(tools: ReadonlyArray<{ name: string; inputSchema: unknown }>) {
    this.schemas = new Map(tools.map((tool) => [tool.name, (tool.inputSchema ?? {}) as ParameterSchema]));
  }

  public has(name: string | undefined): name is string {
    return name !== undefined && this.schemas.has(name);
  }

  public schema(name: string): ParameterSchema | undefined {
    return this.schemas.get(name);
  }

  public get names(): string[] {
    return [...this.schemas.keys()];
  }
}

/** One call read from a body: its input, or the one-line defect that kept it from being read. */
export type BodyCall = { toolName: string; input: Record<string, unknown> } | { toolName: string | undefined; defect: string };

type Read<T> = { value: T } | { defect: string };

/**
 * JSON as models write it: a value cut off (brackets left open) is a defect, since its end is missing; a closed
 * value with small slips (trailing commas, single quotes, Python literals, bare keys) is repaired.
 */
export function readJson(source: string): Read<unknown> {
  const text = source.trim();
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const { closed, missing } = jsonIsClosed(text);
    if (!closed) return { defect: `the JSON is cut off: ${missing.split("").map((char) => `\`${char}\``).join(" ")} never closed` };
    try {
      return { value: JSON.parse(jsonrepair(text.replace(/\bNone\b/g, "null").replace(/\bTrue\b/g, "true").replace(/\bFalse\b/g, "false"))) };
    } catch {
      return { defect: `invalid JSON: ${firstLine(error)}` };
    }
  }
}

/** A JSON call object (or array of them) as Hermes, Qwen2.5, Granite, Llama and Mistral write it. */
export function readJsonCalls(source: string, presetName?: string): BodyCall[] {
  const read = readJson(source);
  if ("defect" in read) return [{ toolName: presetName ?? nameIn(source), defect: read.defect }];
  if (presetName !== undefined) return [argumentsCall(presetName, read.value)];
  const values = Array.isArray(read.value) ? read.value : [read.value];
  if (values.length === 0) return [{ toolName: undefined, defect: "the call list is empty" }];
  return values.map((value) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { toolName: undefined, defect: "a call must be a JSON object with name and arguments" };
    const call = value as Record<string, unknown>;
    const fn = call.function !== null && typeof call.function === "object" ? (call.function as Record<string, unknown>) : undefined;
    const name = [call.name, fn?.name, call.function, call.tool_name, call.tool].find((item) => typeof item === "string") as string | undefined;
    if (name === undefined) return { toolName: undefined, defect: 'the call has no "name"' };
    const args = ["arguments", "parameters", "args", "input"].map((key) => call[key] ?? fn?.[key]).find((item) => item !== undefined);
    return argumentsCall(name, args ?? {});
  });
}

function argumentsCall(toolName: string, args: unknown): BodyCall {
  let value = args;
  if (typeof value === "string") {
    // Arguments encoded as a JSON string (OpenAI style) are read once more.
    if (value.trim() === "") value = {};
    else {
      const inner = readJson(value);
      if ("defect" in inner) return { toolName, defect: `"arguments" is a string that is not a JSON object (${inner.defect})` };
      value = inner.value;
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { toolName, defect: `"arguments" must be a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` };
  return { toolName, input: value as Record<string, unknown> };
}

/** The body of `<tool_call>…</tool_call>`: JSON, Qwen3-Coder `<function=…>`, or GLM-4.5 `name<arg_key>…`. */
export function readToolCallBody(body: string, catalog: ToolCatalog): BodyCall[] {
  const text = body.trim();
  if (text === "") return [{ toolName: undefined, defect: "the <tool_call> is empty" }];
  if (/^[[{]/.test(text)) return readJsonCalls(text);
  if (/^<function[= ]/.test(text)) return readFunctions(text, catalog);
  const glm = /^([\w.:-]+)\s*(?=<arg_key>|$)/.exec(text);
  if (glm !== null) return [readArgPairs(glm[1], text.slice(glm[0].length), catalog)];
  const named = /^([\w.:-]+)\s*([[{][\s\S]*)$/.exec(text);
  if (named !== null) return readJsonCalls(named[2], named[1]);
  return [{ toolName: nameIn(text), defect: 'the <tool_call> body is neither a JSON object {"name": …, "arguments": {…}} nor <function=…>' }];
}

/** One or more `<function=name>` (or `<function name="…">`) blocks, each with `<parameter=key>` children or JSON. */
export function readFunctions(text: string, catalog: ToolCatalog): BodyCall[] {
  const calls: BodyCall[] = [];
  const opener = /<function(?:=([^>\n]+)|\s+name\s*=\s*["']([^"']+)["']\s*)>/g;
  const starts = [...text.matchAll(opener)];
  for (const [index, match] of starts.entries()) {
    const name = (match[1] ?? match[2]).trim();
    const from = match.index + match[0].length;
    const next = starts[index + 1]?.index ?? text.length;
    const close = text.indexOf("</function>", from);
    const end = close >= 0 && close < next ? close : next;
    calls.push(readFunctionBody(name, text.slice(from, end), catalog));
  }
  return calls;
}

/** A function body: JSON arguments, or `<parameter=key>value</parameter>` (a missing `</parameter>` is tolerated). */
export function readFunctionBody(name: string, body: string, catalog: ToolCatalog): BodyCall {
  const text = body.trim();
  if (text === "") return { toolName: name, input: {} };
  if (text.startsWith("{")) return readJsonCalls(text, name)[0];
  const properties = propertiesOf(catalog.schema(name));
  const input: Record<string, unknown> = {};
  const opener = /<parameter(?:=([^>\n]+)|\s+name\s*=\s*["']([^"']+)["']\s*)>/g;
  const starts = [...text.matchAll(opener)];
  if (starts.length === 0) return { toolName: name, defect: `<function=${name}> holds text but no <parameter=…> elements` };
  if (text.slice(0, starts[0].index).trim() !== "") return { toolName: name, defect: `text before the first <parameter=…> in <function=${name}>` };
  for (const [index, match] of starts.entries()) {
    const key = (match[1] ?? match[2]).trim();
    const from = match.index + match[0].length;
    const next = starts[index + 1]?.index ?? text.length;
    const close = text.indexOf("</parameter>", from);
    input[key] = coerceText(trimNewlines(text.slice(from, close >= 0 && close < next ? close : next)), properties[key]);
  }
  return { toolName: name, input };
}

/** GLM-4.5/4.6: `name` then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs. */
function readArgPairs(name: string, text: string, catalog: ToolCatalog): BodyCall {
  const properties = propertiesOf(catalog.schema(name));
  const input: Record<string, unknown> = {};
  const pair = /<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)(?:<\/arg_value>|$)/g;
  let rest = text;
  for (const match of text.matchAll(pair)) {
    const key = match[1].trim();
    input[key] = coerceText(trimNewlines(match[2]), properties[key]);
    rest = rest.replace(match[0], "");
  }
  if (rest.trim() !== "") return { toolName: name, defect: `unreadable text in the ${name} call: \`${snippet(rest.trim())}\` (expected <arg_key>…</arg_key><arg_value>…</arg_value> pairs)` };
  return { toolName: name, input };
}

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
function readElements(text: string, schema: ParameterSchema | undefined, parent: string): Read<Record<string, unknown>> {
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
      const value = elementValue(values[0], property, key);
      if (typeof value === "object" && value !== null && "defect" in value && Object.keys(value).length === 1) return value as { defect: string };
      out[key] = value;
    } else {
      const items = property?.items;
      out[key] = values.map((value) => elementValue(value, items, key));
    }
  }
  return { value: out };
}

function elementValue(inner: string, schema: ParameterSchema | undefined, key: string): unknown {
  const trimmed = inner.trim();
  const types = schema === undefined ? new Set<string>() : new Set([schema.type].flat());
  if (trimmed.startsWith("<") && !trimmed.startsWith("<![CDATA[") && /^<[A-Za-z_]/.test(trimmed) && (types.has("object") || types.has("array") || (schema === undefined && /<\/[\w.:-]+>\s*$/.test(trimmed)))) {
    const read = readElements(trimmed, types.has("array") ? undefined : schema, key);
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

/** A tool name the unreadable text mentions, to keep a broken call from being dropped. */
export function nameIn(text: string): string | undefined {
  return /"(?:name|function)"\s*:\s*"([^"\n]+)"/.exec(text)?.[1] ?? /<function(?:=|\s+name\s*=\s*["'])([^>"'\n]+)/.exec(text)?.[1] ?? /^\s*([\w.:-]+)\s*(?:<arg_key>|$)/.exec(text)?.[1];
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

/** Qwen3-Coder puts parameter values on their own lines: one newline each side is layout, not value. */
function trimNewlines(text: string): string {
  return text.replace(/^\r?\n/, "").replace(/\r?\n$/, "");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function snippet(text: string, max = 40): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0].trim();
}
