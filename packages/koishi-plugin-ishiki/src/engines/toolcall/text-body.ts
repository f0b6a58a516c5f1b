import { jsonrepair } from "jsonrepair";
import { coerceText, propertiesOf } from "./text-coerce.js";
import { jsonIsClosed } from "./text-json-extent.js";
import type { ToolCatalog } from "./text-catalog.js";

/** One call read from a body: its input, or the one-line defect that kept it from being read. */
export type BodyCall = { toolName: string; input: Record<string, unknown> } | { toolName: string | undefined; defect: string };

export type Read<T> = { value: T } | { defect: string };

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

export function argumentsCall(toolName: string, args: unknown): BodyCall {
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

/** A tool name the unreadable text mentions, to keep a broken call from being dropped. */
export function nameIn(text: string): string | undefined {
  return /"(?:name|function)"\s*:\s*"([^"\n]+)"/.exec(text)?.[1] ?? /<function(?:=|\s+name\s*=\s*["'])([^>"'\n]+)/.exec(text)?.[1] ?? /^\s*([\w.:-]+)\s*(?:<arg_key>|$)/.exec(text)?.[1];
}

/** Qwen3-Coder puts parameter values on their own lines: one newline each side is layout, not value. */
export function trimNewlines(text: string): string {
  return text.replace(/^\r?\n/, "").replace(/\r?\n$/, "");
}

export function snippet(text: string, max = 40): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0].trim();
}
