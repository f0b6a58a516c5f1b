/** A result that cannot become JSON (04 EX-7). */
export class ResultJsonError extends Error {
  override name = "ResultJsonError";
}

/**
 * The readable form of a JSON result the native serialiser refuses (04 EX-7): pretty JSON of the value
 * normalised by hand, BigInt → string; a cycle is a ResultJsonError naming its path. Everything else the
 * native serialiser normalises itself (Date → ISO, `undefined` properties removed, non-finite → `null`).
 */
export function normalisedJson(value: unknown): string {
  return JSON.stringify(normalise(value, "$", []), null, 2) ?? "null";
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
