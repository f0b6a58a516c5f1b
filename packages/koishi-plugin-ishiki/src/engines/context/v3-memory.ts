import { readdir, readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { parse } from "yaml";

/** One memory block (spec 06 EN-20). */
export interface MemoryBlock {
  label: string;
  title?: string;
  description?: string;
  body: string;
}

const SAFE_LABEL = /^[A-Za-z][A-Za-z0-9_-]*$/;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Reads `<root>/memory/*.md|*.txt` in name order: YAML front matter with `label` (the file's stem when absent),
 * optional `title` and `description`; the body is the rest. A label must start with a letter and hold only
 * letters, digits, `_` and `-`; the first file with a label wins. Problems come back as `skipped` reasons.
 */
export async function readMemoryBlocks(root: string): Promise<{ blocks: MemoryBlock[]; skipped: string[] }> {
  const dir = join(root, "memory");
  const names = await readdir(dir).catch(() => [] as string[]);
  const blocks: MemoryBlock[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const name of names.filter((file) => [".md", ".txt"].includes(extname(file).toLowerCase())).sort()) {
    const text = await readFile(join(dir, name), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const match = FRONT_MATTER.exec(text);
    let meta: Record<string, unknown> = {};
    if (match) {
      try {
        const parsed: unknown = parse(match[1]);
        if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
      } catch (error) {
        skipped.push(`memory/${name}: invalid front matter: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`);
        continue;
      }
    }
    const label = meta.label === undefined ? name.slice(0, -extname(name).length) : String(meta.label);
    if (!SAFE_LABEL.test(label)) {
      skipped.push(`memory/${name}: label "${label}" is not safe; use a letter first, then letters, digits, _ or -`);
      continue;
    }
    if (seen.has(label)) {
      skipped.push(`memory/${name}: label "${label}" already used by an earlier file`);
      continue;
    }
    seen.add(label);
    const block: MemoryBlock = { label, body: (match ? text.slice(match[0].length) : text).trim() };
    if (typeof meta.title === "string") block.title = meta.title;
    if (typeof meta.description === "string") block.description = meta.description;
    blocks.push(block);
  }
  return { blocks, skipped };
}

/** `<memory_blocks>` with one `<memory_block label title description>` per block; undefined when none. */
export function renderMemoryBlocks(blocks: readonly MemoryBlock[]): string | undefined {
  if (blocks.length === 0) return undefined;
  const attribute = (name: string, value: string | undefined): string => (value === undefined ? "" : ` ${name}="${value.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`);
  const rendered = blocks.map((block) => `<memory_block${attribute("label", block.label)}${attribute("title", block.title)}${attribute("description", block.description)}>\n${block.body}\n</memory_block>`);
  return ["# Memory", "Your long-term memory blocks, kept by your owner:", "<memory_blocks>", ...rendered, "</memory_blocks>"].join("\n");
}
