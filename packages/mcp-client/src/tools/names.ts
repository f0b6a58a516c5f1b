import { createHash } from "node:crypto";
import { transliterate } from "transliteration";

/** Providers commonly cap function names at 64 characters (OpenAI, Gemini, Anthropic). */
export const MAX_TOOL_NAME = 64;

const ASCII = /^[\x20-\x7e]*$/;

/** A short, stable hex digest of `text`: what keeps a cut or script-less name unique. */
function digest(text: string, length: number): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** Folds a name to the model's alphabet (MC-10): runs outside `[A-Za-z0-9_-]` become `_`, edges trimmed. */
export function foldToolName(name: string): string {
  const folded = name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[_-]+|[_-]+$/g, "");
  return folded === "" ? "mcp" : folded;
}

/**
 * Non-ASCII text transliterated to ASCII (`记忆` → `Ji Yi`, `Привет` → `Privet`), so Chinese server and tool
 * names keep a readable prefix instead of folding to nothing. (`transliteration` rather than an ESM-only
 * library with a default export: the published CommonJS bundle gets that export wrong.)
 */
function romanize(name: string): string {
  return ASCII.test(name) ? name : transliterate(name);
}

/**
 * The ASCII-safe prefix of a server's tools and its `mcp://` authority: the name transliterated and folded. A
 * name with nothing left after that (say only symbols) becomes `mcp_<hash>`, which still differs per name.
 */
export function serverPrefix(server: string): string {
  const folded = romanize(server).replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[_-]+|[_-]+$/g, "");
  return folded === "" ? `mcp_${digest(server, 6)}` : folded;
}

/** `name` within `max` characters: a longer one keeps its head and ends in `_<hash of the whole>`. */
function capped(name: string, max: number): string {
  if (name.length <= max) return name;
  const tail = `_${digest(name, 6)}`;
  return `${name.slice(0, max - tail.length).replace(/[_-]+$/, "")}${tail}`;
}

/**
 * The exposed names of one server's tools, in listing order (MC-10): `<prefix>-<tool>` transliterated and
 * folded, at most 64 characters; a name already taken in this server gets `_2`, `_3`, … in listing order.
 */
export function exposedToolNames(server: string, tools: readonly string[]): string[] {
  const prefix = serverPrefix(server);
  const taken = new Set<string>();
  return tools.map((tool) => {
    const base = capped(foldToolName(`${prefix}-${romanize(tool)}`), MAX_TOOL_NAME);
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`;
      name = `${capped(base, MAX_TOOL_NAME - suffix.length)}${suffix}`;
    }
    taken.add(name);
    return name;
  });
}
