import type { FileUrl } from "./file-url.js";
import { quote } from "./quote.js";
import { ResourceError } from "./resource-error.js";
import { parseSelectors } from "./selectors.js";

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** The lower-cased scheme of a resource URL, or undefined when it has none (RS-5). */
export function schemeOf(url: string): string | undefined {
  return SCHEME.exec(url)?.[1].toLowerCase();
}

function invalid(url: string, reason: string): ResourceError {
  return new ResourceError("invalid_resource_uri", `${quote(url)}: ${reason}`);
}

function decodeSegment(url: string, raw: string): string {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    throw invalid(url, `malformed percent-encoding in "${quote(raw)}"`);
  }
  if (segment === "." || segment === "..") throw invalid(url, `"${raw}" segments are not allowed`);
  if (segment.includes("\0")) throw invalid(url, "NUL is not allowed in a path");
  if (segment.includes("\\")) throw invalid(url, "backslashes are not allowed in a path; use /");
  if (segment.includes("/")) throw invalid(url, "an encoded / is not allowed inside a path segment");
  return segment;
}

function parseOffset(url: string, fragment: string): FileUrl["offset"] {
  const match = /^offset=(\d+)(?:&end=(\d+))?$/.exec(fragment);
  if (!match) throw invalid(url, `unsupported fragment "#${quote(fragment)}"; use #offset=N or #offset=N&end=L`);
  const offset = Number(match[1]);
  const end = match[2] === undefined ? undefined : Number(match[2]);
  if (!Number.isSafeInteger(offset) || (end !== undefined && !Number.isSafeInteger(end))) {
    throw invalid(url, `fragment number is above ${Number.MAX_SAFE_INTEGER}`);
  }
  if (end === 0) throw invalid(url, "#offset end line numbers start at 1");
  return end === undefined ? { offset } : { offset, end };
}

function parseView(url: string, query: string): string | undefined {
  const params = new URLSearchParams(query);
  const keys = [...params.keys()];
  if (keys.some((key) => key !== "view") || keys.length > 1) {
    throw invalid(url, `unsupported query "?${quote(query)}"; only ?view=<name> is understood`);
  }
  const view = params.get("view");
  if (view === "") throw invalid(url, "empty ?view=; use ?view=meta");
  return view ?? undefined;
}

/**
 * Parses a FileScheme URL (RS-5, RS-8, RS-11, RS-12): the authority ends at the first `/`, `?`, `#` or `:`;
 * the first `:` after it starts the selector chain, so literal colons in paths are written `%3A`.
 */
export function parseFileUrl(url: string): FileUrl {
  const scheme = schemeOf(url);
  if (scheme === undefined) throw invalid(url, "not a resource URL; expected <scheme>://…");
  let rest = url.slice(scheme.length + 3);
  let fragment: string | undefined;
  let query: string | undefined;
  const hash = rest.indexOf("#");
  if (hash >= 0) [rest, fragment] = [rest.slice(0, hash), rest.slice(hash + 1)];
  const question = rest.indexOf("?");
  if (question >= 0) [rest, query] = [rest.slice(0, question), rest.slice(question + 1)];
  if (rest.includes("\\")) throw invalid(url, "backslashes are not allowed in a path; use /");
  const colon = rest.indexOf(":");
  const chain = colon >= 0 ? rest.slice(colon + 1) : undefined;
  if (colon >= 0) rest = rest.slice(0, colon);
  const slash = rest.indexOf("/");
  const authority = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash) : "";
  const segments = path.split("/").filter((raw) => raw !== "").map((raw) => decodeSegment(url, raw));
  const parsed: FileUrl = { url, scheme, authority: decodeSegment(url, authority), path, segments };
  if (query !== undefined) parsed.view = parseView(url, query);
  if (chain !== undefined) parsed.selection = parseSelectors(url.slice(0, scheme.length + 3 + colon), chain);
  if (fragment !== undefined) parsed.offset = parseOffset(url, fragment);
  if (parsed.selection && parsed.offset) throw invalid(url, "use either a line selector or #offset, not both");
  if (parsed.view === "meta" && (parsed.selection || parsed.offset)) throw invalid(url, "?view=meta takes no selector or #offset");
  return parsed;
}

/** The URL without selector, query or fragment: the base continuations append `#offset=` to. */
export function baseUrl(url: string): string {
  const scheme = schemeOf(url) ?? "";
  const rest = url.slice(scheme.length + 3);
  const end = rest.search(/[:?#]/);
  return end < 0 ? url : url.slice(0, scheme.length + 3 + end);
}
