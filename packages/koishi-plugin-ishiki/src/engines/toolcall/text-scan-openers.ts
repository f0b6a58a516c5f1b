import type { ToolCatalog } from "./text-catalog.js";

/** How a call's markup starts and where its body ends. */
export type Opener =
  /** `<tool_call>` … `</tool_call>` (Hermes, Qwen, GLM, Granite 3.2+). */
  | { form: "tool_call"; head: number; close: string }
  /** `<function=name>` or `<function name="name">` … `</function>` (Qwen3-Coder, Llama-style Hermes outputs). */
  | { form: "function"; head: number; close: string; name: string }
  /** `<name>` … `</name>` for a known tool (morph-xml, yaml-xml). */
  | { form: "element"; head: number; close: string; name: string }
  /** `<name/>`: a call without parameters, unless a `</name>` follows (then what is between is its body). */
  | { form: "empty"; head: number; close: string; name: string }
  /** `<think>` … `</think>`: reasoning, read as text; markup inside it is never a call. */
  | { form: "think"; head: number; close: string }
  /** A JSON value: after `<|tool_call|>`, `[TOOL_CALLS]`, inside a ```json fence, or a bare call object. */
  | { form: "json"; head: number; via: "token" | "fence" | "bare"; name?: string };

/** Not enough text yet to decide. */
export const NEED = "need" as const;

const NAME_LIMIT = 128;

/**
 * Whether markup starts at `at` (where `text[at]` is one of `<`, `[`, `` ` ``, `{`). Decides from a bounded
 * look-ahead, so a candidate costs at most a tool name's length however often it is re-checked.
 */
export function openerAt(text: string, at: number, catalog: ToolCatalog, final: boolean): Opener | typeof NEED | undefined {
  const result = classify(text, at, catalog);
  return result === NEED && final ? undefined : result;
}

function classify(text: string, at: number, catalog: ToolCatalog): Opener | typeof NEED | undefined {
  const char = text[at];
  if (char === "<") {
    for (const [literal, make] of TAG_LITERALS) {
      const found = literalAt(text, at, literal);
      if (found === NEED) return NEED;
      if (found) return make(at + literal.length);
    }
    const fn = functionOpener(text, at);
    if (fn !== undefined) return fn;
    return elementOpener(text, at, catalog);
  }
  if (char === "[") {
    const found = literalAt(text, at, "[TOOL_CALLS]");
    if (found !== true) return found === NEED ? NEED : undefined;
    return mistralOpener(text, at + "[TOOL_CALLS]".length);
  }
  if (char === "`") {
    const found = literalAt(text, at, "```");
    if (found !== true) return found === NEED ? NEED : undefined;
    const lang = /^[A-Za-z_]*/.exec(text.slice(at + 3, at + 3 + 20))?.[0] ?? "";
    if (at + 3 + lang.length >= text.length) return NEED;
    if (lang !== "" && !/^(json|tool_call|tool_code|javascript)$/i.test(lang)) return undefined;
    const start = skipSpace(text, at + 3 + lang.length);
    if (start === NEED) return NEED;
    const prefix = callPrefix(text, start, catalog);
    return prefix === true ? { form: "json", head: start, via: "fence" } : prefix === NEED ? NEED : undefined;
  }
  if (char === "{") {
    const prefix = callPrefix(text, at, catalog);
    return prefix === true ? { form: "json", head: at, via: "bare" } : prefix === NEED ? NEED : undefined;
  }
  return undefined;
}

const TAG_LITERALS: ReadonlyArray<[string, (head: number) => Opener]> = [
  ["<tool_call>", (head) => ({ form: "tool_call", head, close: "</tool_call>" })],
  ["<|tool_call|>", (head) => ({ form: "json", head, via: "token" })],
  ["<think>", (head) => ({ form: "think", head, close: "</think>" })],
];

/** `true` when `literal` is at `at`, NEED when the text ends inside a prefix of it. */
function literalAt(text: string, at: number, literal: string): boolean | typeof NEED {
  const available = text.length - at;
  if (available >= literal.length) return text.startsWith(literal, at);
  return literal.startsWith(text.slice(at)) ? NEED : false;
}

function skipSpace(text: string, from: number): number | typeof NEED {
  let at = from;
  while (at < text.length && /\s/.test(text[at])) at += 1;
  return at < text.length ? at : NEED;
}

function functionOpener(text: string, at: number): Opener | typeof NEED | undefined {
  const found = literalAt(text, at, "<function");
  if (found !== true) return found === NEED ? NEED : undefined;
  const end = text.indexOf(">", at);
  const limit = at + "<function".length + NAME_LIMIT;
  if (end < 0) return text.length < limit && !text.slice(at).includes("\n") ? NEED : undefined;
  const match = /^<function(?:=([^>\n]+)|\s+name\s*=\s*["']([^"'\n]+)["']\s*)>/.exec(text.slice(at, end + 1));
  if (match === null) return undefined;
  return { form: "function", head: end + 1, close: "</function>", name: (match[1] ?? match[2]).trim() };
}

function elementOpener(text: string, at: number, catalog: ToolCatalog): Opener | typeof NEED | undefined {
  const name = /^[A-Za-z_][\w.:-]*/.exec(text.slice(at + 1, at + 1 + NAME_LIMIT + 1))?.[0];
  if (name === undefined) return at + 1 >= text.length ? NEED : undefined;
  let after = at + 1 + name.length;
  if (after >= text.length) return name.length <= NAME_LIMIT ? NEED : undefined;
  if (!catalog.has(name)) return undefined;
  while (after < text.length && (text[after] === " " || text[after] === "\t")) after += 1;
  if (after >= text.length) return NEED;
  if (text[after] === ">") return { form: "element", head: after + 1, close: `</${name}>`, name };
  if (text[after] !== "/") return undefined;
  if (after + 1 >= text.length) return NEED;
  return text[after + 1] === ">" ? { form: "empty", head: after + 2, close: `</${name}>`, name } : undefined;
}

/** `[TOOL_CALLS]` then a JSON list (Mistral v3 tokenizer) or `name[ARGS]{…}` / `name{…}` (v11). */
function mistralOpener(text: string, from: number): Opener | typeof NEED | undefined {
  const start = skipSpace(text, from);
  if (start === NEED) return NEED;
  if (text[start] === "[" || text[start] === "{") return { form: "json", head: start, via: "token" };
  const match = /^([\w.:-]+)(\[ARGS\])?\s*/.exec(text.slice(start, start + NAME_LIMIT + 16));
  if (match === null) return undefined;
  const brace = start + match[0].length;
  if (brace >= text.length) return NEED;
  if (match[2] === undefined && literalAt(text, brace, "[ARGS]") === NEED) return NEED;
  return text[brace] === "{" ? { form: "json", head: brace, via: "token", name: match[1] } : undefined;
}

/** Whether a call object naming a known tool starts at `from`: `[`? `{` `"name"` `:` `"<known tool>"`. */
function callPrefix(text: string, from: number, catalog: ToolCatalog): boolean | typeof NEED {
  const window = text.slice(from, from + NAME_LIMIT + 32);
  const complete = /^\[?\s*\{\s*"name"\s*:\s*"([^"\n]*)"/.exec(window);
  if (complete !== null) return catalog.has(complete[1]);
  const partial = /^(\[\s*)?(\{(\s*("(n(a(m(e("(\s*(:(\s*("[^"\n]*)?)?)?)?)?)?)?)?)?)?)?)?$/;
  return from + window.length >= text.length && window.length <= NAME_LIMIT + 16 && partial.test(window) ? NEED : false;
}
