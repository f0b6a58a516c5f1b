import type { JsonValue } from "./sandbox.js";
import { CROSSING_DEPTH, SIDE_MARK, SIDE_STRING_UNITS, type Crossing } from "./worker/protocol.js";

/**
 * JSON crossing the sandbox boundary on the host side (spec 05 CT-9, CT-12; 04 EX-7). Both directions drop
 * `__proto__` keys, so no parsed or forwarded object can carry a prototype chosen by its sender.
 *
 * Every value is bounded before any host code walks it: at most CROSSING_DEPTH levels of nesting, checked on
 * the text, so the walks below recurse at most that deep. Long strings cross beside the JSON text (see
 * `Crossing`): copying them into and out of the guest's JSON parser was most of the cost of moving data.
 */

/** A crossing plus its size under CT-12: UTF-8 bytes, with base64 `data` of binary payloads at decoded size. */
export interface MeasuredJson extends Crossing {
  readonly bytes: number;
}

const UNSAFE_KEY = "__proto__";

/** A node carrying media: its base64 `data` counts as the bytes it encodes. */
function isBinaryPayload(node: object): boolean {
  const record = node as Record<string, unknown>;
  return typeof record.mediaType === "string" || typeof record.mimeType === "string";
}

function decodedLength(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

export class JsonCycleError extends Error {
  override name = "JsonCycleError";
}

/** A value nested deeper than CROSSING_DEPTH; the caller names the direction in its error text. */
export class JsonDepthError extends Error {
  override name = "JsonDepthError";
  constructor() {
    super(`value nests deeper than ${CROSSING_DEPTH} levels`);
  }
}

/**
 * Whether JSON text nests deeper than `max`. Counting brackets with `indexOf` settles almost every text
 * without a loop in JavaScript; only texts with more brackets than `max` are scanned exactly (strings skipped).
 */
export function nestsDeeper(text: string, max: number): boolean {
  let brackets = 0;
  for (const open of ["[", "{"]) {
    for (let at = text.indexOf(open); at >= 0; at = text.indexOf(open, at + 1)) {
      if (++brackets > max) return scanDepth(text) > max;
    }
  }
  return false;
}

function scanDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // Skip the string: find its closing quote, stepping over escapes.
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i);
        if (inner === 0x5c) i++;
        else if (inner === 0x22) break;
      }
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

const isMarker = (value: string) => value.charCodeAt(0) === 0xe000;
/** Whether a string may cross aside: the side channel carries NUL-terminated UTF-8 (see `Crossing`). */
const sideSafe = (value: string) => (value as string & { isWellFormed(): boolean }).isWellFormed() && !value.includes("\0");

/**
 * Normalises a host value (a tool's output) for the guest: Date → ISO, BigInt → string, bytes → base64,
 * non-finite → null, `undefined` properties dropped. A cycle throws `JsonCycleError` naming its path; nesting
 * past CROSSING_DEPTH throws `JsonDepthError`.
 */
export function encodeJson(value: unknown): MeasuredJson {
  let discount = 0;
  const strings: string[] = [];
  let sideBytes = 0;
  function replacer(this: unknown, key: string, current: unknown): unknown {
    if (key === UNSAFE_KEY) return undefined;
    const holder = this as Record<string, unknown>;
    const inPayload = key === "data" && isBinaryPayload(holder);
    if (typeof current === "bigint") return current.toString();
    const original = holder[key];
    let text = current;
    if (original instanceof Uint8Array || original instanceof ArrayBuffer) {
      const bytes = original instanceof ArrayBuffer ? new Uint8Array(original) : original;
      text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
      if (inPayload) discount += (text as string).length - bytes.byteLength;
    } else if (inPayload && typeof current === "string") discount += current.length - decodedLength(current);
    if (typeof text === "string" && (text.length >= SIDE_STRING_UNITS || isMarker(text)) && sideSafe(text)) {
      const marker = `${SIDE_MARK}${strings.length}`;
      strings.push(text);
      sideBytes += Buffer.byteLength(text) - Buffer.byteLength(marker);
      return marker;
    }
    return text;
  }
  let json: string;
  try {
    json = JSON.stringify(value, replacer) ?? "null";
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) throw new JsonDepthError();
    const path = error instanceof TypeError ? cyclePath(value, "$", []) : undefined;
    if (path === undefined) throw error;
    throw new JsonCycleError(`result is not JSON-serialisable: cycle at ${path}`);
  }
  if (nestsDeeper(json, CROSSING_DEPTH)) throw new JsonDepthError();
  return { json, strings, bytes: Buffer.byteLength(json) + sideBytes - discount };
}

/** Path of the first reference back to an enclosing object, looked for only after JSON.stringify reported a cycle. */
function cyclePath(value: unknown, path: string, open: object[]): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (open.includes(value)) return path;
  // Deeper than a crossing may nest: that is the error to report, not the cycle.
  if (open.length >= CROSSING_DEPTH) throw new JsonDepthError();
  open.push(value);
  const entries = Array.isArray(value)
    ? value.map((item, index) => [`${path}[${index}]`, item] as const)
    : Object.keys(value).map((key) => [childPath(path, key), (value as Record<string, unknown>)[key]] as const);
  for (const [childAt, child] of entries) {
    const found = cyclePath(child, childAt, open);
    if (found !== undefined) return found;
  }
  open.pop();
  return undefined;
}

function childPath(parent: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * Parses a crossing from the guest and measures it. Throws `JsonDepthError` past CROSSING_DEPTH (checked on
 * the text, before parsing); the caller turns every throw into the program's error result.
 */
export function decodeJson(crossing: Crossing): { readonly value: JsonValue; readonly bytes: number } {
  const { json, strings } = crossing;
  if (nestsDeeper(json, CROSSING_DEPTH)) throw new JsonDepthError();
  // V8's JSON.parse is iterative; only the walk below visits the value, at most CROSSING_DEPTH deep.
  const parsed = JSON.parse(json) as JsonValue;
  // Escapes could spell a key, so any text with `\u` or the key itself is walked.
  const walk = strings.length > 0 || json.includes(UNSAFE_KEY) || json.includes("\\u") || json.includes('"data"');
  if (!walk) return { value: parsed, bytes: Buffer.byteLength(json) };
  const state = { strings, bytes: Buffer.byteLength(json) };
  const value = restore(parsed, state);
  return { value, bytes: state.bytes };
}

interface RestoreState {
  readonly strings: readonly string[];
  bytes: number;
}

/**
 * Puts side strings back where their markers stand, drops `__proto__` keys and discounts base64 payloads.
 * Every marker use is counted, so a guest that repeats a marker pays for each copy it makes.
 */
function restore(value: JsonValue, state: RestoreState): JsonValue {
  if (typeof value === "string") return isMarker(value) ? sideString(value, state) : value;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i], state);
    return value;
  }
  if (Object.hasOwn(value, UNSAFE_KEY)) delete value[UNSAFE_KEY];
  for (const key of Object.keys(value)) value[key] = restore(value[key], state);
  if (typeof value.data === "string" && isBinaryPayload(value)) state.bytes -= value.data.length - decodedLength(value.data);
  return value;
}

function sideString(marker: string, state: RestoreState): string {
  const digits = marker.slice(SIDE_MARK.length);
  const text = /^\d{1,9}$/.test(digits) ? state.strings[Number(digits)] : undefined;
  // The guest's encoder sends every string starting with the mark aside; anything else was forged, and stays.
  if (text === undefined) return marker;
  state.bytes += Buffer.byteLength(text) - Buffer.byteLength(marker);
  return text;
}
