// The exact text of `JSON.stringify(value, null, 2)`, produced in pieces. One native call over a large result
// builds a rope that V8 flattens (copies again) on first read, and holds the whole text at once; pieces let the
// exit stop at the first page when the result is small and stream the rest into the artifact when it is not.
// Large containers are cut into batches of children, each batch serialised natively at its nesting depth; small
// subtrees stay one native call. Where the native serialiser would throw (BigInt, a cycle), so does this.
//
// One difference by design: inside an array batch, a `toJSON(key)` method sees its index within the batch.
// Only methods that print their key notice (Date's does not).

/** Containers with at least this many children are emitted batch by batch. */
const STREAM_CHILDREN = 64;
/** Children per native call in a streamed container. */
const BATCH = 256;
/** Below this depth a small container is descended into when it holds a large one. */
const MAX_DESCENT = 8;
/** Nodes a probe for a large container may visit before it assumes there is one. */
const PROBE_BUDGET = 4096;

type Container = unknown[] | Record<string, unknown>;

function isContainer(value: unknown): value is Container {
  if (value === null || typeof value !== "object") return false;
  // Boxed primitives, Maps and other exotic objects keep the native serialiser's own treatment.
  return Array.isArray(value) || Object.prototype.toString.call(value) === "[object Object]";
}

/** What `JSON.stringify` serialises for `holder[key]`: the value after its `toJSON`, if it has one. */
function jsonValueOf(value: unknown, key: string): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof value === "object" && value !== null && typeof toJSON === "function" ? toJSON.call(value, key) : value;
}

/** Whether the serialiser omits a member holding this value (and writes `null` for an array element). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/**
 * Native pretty JSON of `value` as it appears at `depth`: every line after the first indented by 2 × depth
 * spaces. Nesting the value in `depth` one-element arrays makes the serialiser indent it; the wrapping brackets
 * take depth × (depth + 3) units before it and depth × (depth + 1) after.
 */
function nativeAt(value: unknown, depth: number): string {
  let wrapped = value;
  for (let i = 0; i < depth; i++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2) ?? "null";
  return depth === 0 ? text : text.slice(depth * (depth + 3), text.length - depth * (depth + 1));
}

/** Whether a container holds a large container within the probe's reach (or is too big to probe). */
function holdsLarge(root: Container): boolean {
  let budget = PROBE_BUDGET;
  const visit = (value: unknown, depth: number): boolean => {
    if (--budget < 0) return true;
    if (!isContainer(value)) return false;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (children.length >= STREAM_CHILDREN) return true;
    return depth < MAX_DESCENT && children.some((child) => visit(child, depth + 1));
  };
  return visit(root, 0);
}

function indent(depth: number): string {
  return "  ".repeat(depth);
}

function* arrayBatches(array: unknown[], depth: number): Generator<string> {
  for (let start = 0; start < array.length; start += BATCH) {
    const text = nativeAt(array.slice(start, start + BATCH), depth);
    // `[\n` + the children at depth + 1 + `\n<indent>]`. The separator is a piece of its own: joined to the body
    // it would make a rope that costs another copy of the body when it is read.
    yield start === 0 ? "[\n" : ",\n";
    yield text.slice(2, text.length - 2 - 2 * depth);
  }
  yield `\n${indent(depth)}]`;
}

function* objectBatches(record: Record<string, unknown>, keys: string[], depth: number): Generator<string> {
  let open = false;
  for (let start = 0; start < keys.length; start += BATCH) {
    const batch = Object.fromEntries(keys.slice(start, start + BATCH).map((key) => [key, record[key]]));
    const text = nativeAt(batch, depth);
    if (text === "{}") continue;
    yield open ? ",\n" : "{\n";
    yield text.slice(2, text.length - 2 - 2 * depth);
    open = true;
  }
  yield open ? `\n${indent(depth)}}` : "{}";
}

/** A small container holding a large one: its children one by one, descending into each. */
function* children(container: Container, depth: number): Generator<string> {
  const array = Array.isArray(container);
  const keys = array ? undefined : Object.keys(container);
  const count = keys ? keys.length : (container as unknown[]).length;
  const inner = indent(depth + 1);
  let open = false;
  for (let i = 0; i < count; i++) {
    const key = keys ? keys[i] : String(i);
    const value = jsonValueOf((container as Record<string, unknown>)[key], key);
    if (keys && omitted(value)) continue;
    const label = keys ? `${JSON.stringify(key)}: ` : "";
    const lead = `${open ? ",\n" : array ? "[\n" : "{\n"}${inner}${label}`;
    open = true;
    if (omitted(value)) {
      yield `${lead}null`;
      continue;
    }
    let first = true;
    for (const piece of emit(value, depth + 1)) {
      yield first ? lead + piece : piece;
      first = false;
    }
  }
  yield open ? `\n${indent(depth)}${array ? "]" : "}"}` : array ? "[]" : "{}";
}

/** `value` (after `toJSON`) serialised at `depth`. */
function* emit(value: unknown, depth: number): Generator<string> {
  if (!isContainer(value) || depth >= MAX_DESCENT) {
    yield nativeAt(value, depth);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length >= STREAM_CHILDREN) yield* arrayBatches(value, depth);
    else if (value.length > 0 && holdsLarge(value)) yield* children(value, depth);
    else yield nativeAt(value, depth);
    return;
  }
  const keys = Object.keys(value);
  if (keys.length >= STREAM_CHILDREN) yield* objectBatches(value, keys, depth);
  else if (keys.length > 0 && holdsLarge(value)) yield* children(value, depth);
  else yield nativeAt(value, depth);
}

/**
 * Pretty JSON of a tool result in pieces whose concatenation is `JSON.stringify(value, null, 2)`, with a
 * top-level `undefined` (or function) as `null`. Throws the native serialiser's TypeError for BigInt and cycles.
 */
export function* prettyJsonPieces(value: unknown): Generator<string> {
  const root = jsonValueOf(value, "");
  if (omitted(root)) yield "null";
  else yield* emit(root, 0);
}
