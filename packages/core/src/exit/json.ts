/** A result that cannot become JSON (04 EX-7). */
export class ResultJsonError extends Error {
  override name = "ResultJsonError";
}

/**
 * The readable form of a JSON result (04 EX-7, EX-8): pretty JSON of the normalised value — Date → ISO,
 * `undefined` properties removed, top-level `undefined` → `null`, BigInt → string, non-finite → `null`. The
 * native serialiser does all of it but BigInt; values it refuses (BigInt, cycles) take the slow path.
 */
export function readableJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "null";
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(normalise(value, "$", []), null, 2) ?? "null";
  }
}

function normalise(value: unknown, path: string, open: object[]): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  const json = (value as { toJSON?: unknown }).toJSON;
  if (typeof json === "function") return normalise(json.call(value), path, open);
  if (open.includes(value)) throw new ResultJsonError(`result is not JSON-serialisable: cycle at ${path}`);
  open.push(value);
  let out: unknown;
  if (Array.isArray(value)) out = value.map((item, index) => normalise(item, `${path}[${index}]`, open));
  else {
    const record: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) record[key] = normalise(item, childPath(path, key), open);
    out = record;
  }
  open.pop();
  return out;
}

function childPath(parent: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}
