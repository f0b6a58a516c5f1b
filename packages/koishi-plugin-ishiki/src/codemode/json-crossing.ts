import type { JsonValue } from "./sandbox.js";

/**
 * JSON crossing the sandbox boundary on the host side (spec 05 CT-9, CT-12; 04 EX-7). Both directions drop
 * `__proto__` keys, so no parsed or forwarded object can carry a prototype chosen by its sender.
 */

/** JSON text plus its size under CT-12: UTF-8 bytes, with base64 `data` of binary payloads at decoded size. */
export interface MeasuredJson {
  readonly text: string;
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

/**
 * Normalises a host value (a tool's output) to JSON text: Date → ISO, BigInt → string, bytes → base64,
 * non-finite → null, `undefined` properties dropped. A cycle throws `JsonCycleError` naming its path.
 */
export function encodeJson(value: unknown): MeasuredJson {
  let discount = 0;
  function replacer(this: unknown, key: string, current: unknown): unknown {
    if (key === UNSAFE_KEY) return undefined;
    const holder = this as Record<string, unknown>;
    const inPayload = key === "data" && isBinaryPayload(holder);
    if (typeof current === "bigint") return current.toString();
    const original = holder[key];
    if (original instanceof Uint8Array || original instanceof ArrayBuffer) {
      const bytes = original instanceof ArrayBuffer ? new Uint8Array(original) : original;
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
      if (inPayload) discount += text.length - bytes.byteLength;
      return text;
    }
    if (inPayload && typeof current === "string") discount += current.length - decodedLength(current);
    return current;
  }
  let text: string;
  try {
    text = JSON.stringify(value, replacer) ?? "null";
  } catch (error) {
    const path = error instanceof TypeError ? cyclePath(value, "$", []) : undefined;
    if (path === undefined) throw error;
    throw new JsonCycleError(`result is not JSON-serialisable: cycle at ${path}`);
  }
  return { text, bytes: Buffer.byteLength(text) - discount };
}

/** Path of the first reference back to an enclosing object, found only after JSON.stringify reported a cycle. */
function cyclePath(value: unknown, path: string, open: object[]): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  if (open.includes(value)) return path;
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

/** Parses JSON text from the guest (already normalised there) and measures it. */
export function decodeJson(text: string): { readonly value: JsonValue; readonly bytes: number } {
  // Escapes could spell the key, so any text with `\u` or the key itself takes the slower, filtering parse.
  const value = (
    text.includes(UNSAFE_KEY) || text.includes("\\u")
      ? JSON.parse(text, (key, current: unknown) => (key === UNSAFE_KEY ? undefined : current))
      : JSON.parse(text)
  ) as JsonValue;
  const discount = text.includes('"data"') ? payloadDiscount(value) : 0;
  return { value, bytes: Buffer.byteLength(text) - discount };
}

function payloadDiscount(value: JsonValue): number {
  if (value === null || typeof value !== "object") return 0;
  let discount = 0;
  if (Array.isArray(value)) {
    for (const item of value) discount += payloadDiscount(item);
    return discount;
  }
  if (typeof value.data === "string" && isBinaryPayload(value)) discount += value.data.length - decodedLength(value.data);
  for (const key of Object.keys(value)) if (key !== "data") discount += payloadDiscount(value[key]);
  return discount;
}
