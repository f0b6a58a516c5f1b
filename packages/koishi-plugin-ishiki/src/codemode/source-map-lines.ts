const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

/**
 * For each generated line (1-based index), the 0-based original line of its first mapped segment, or -1.
 * Reads only what line mapping needs from a source map v3 `mappings` string.
 */
export function originalLineTable(mappings: string): Int32Array {
  const lines = mappings.split(";");
  const table = new Int32Array(lines.length + 1).fill(-1);
  let originalLine = 0;
  lines.forEach((line, index) => {
    let first = true;
    for (const segment of line.split(",")) {
      if (segment === "") continue;
      const fields = decodeVlq(segment);
      // Fields: generated column, source, original line, original column[, name]; all but the first are deltas
      // that carry across lines.
      if (fields.length >= 4) {
        originalLine += fields[2];
        if (first) table[index + 1] = originalLine;
        first = false;
      }
    }
  });
  return table;
}

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`source map: invalid base64 digit ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}
