import { parse } from "yaml";

/**
 * The scalar fields of a Markdown file's leading `---` YAML block, as trimmed strings, or undefined when it has
 * none or it is not a YAML mapping. SKILL.md needs `name` and `description`.
 */
export function frontMatter(text: string): Record<string, string> | undefined {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return undefined;
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === "---");
  if (end < 0) return undefined;
  let data: unknown;
  try {
    data = parse(lines.slice(1, end).join("\n"));
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[key] = String(value).trim();
  }
  return fields;
}
