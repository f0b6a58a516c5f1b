import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { frontMatter } from "./front-matter.js";
import type { Skill } from "./skill.js";

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface SkillSources {
  dataPath: string;
  /** Absolute profile directory; the profile's `skills` entries are relative to it. */
  root: string;
  dirs: readonly string[];
  warn(message: string): void;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/** Reads and validates one skill directory (WS-19); invalid ones are dropped with a warning naming the file. */
async function loadSkill(dir: string, warn: (message: string) => void): Promise<Skill | undefined> {
  const file = join(dir, "SKILL.md");
  const name = basename(dir);
  const fields = frontMatter(await readFile(file, "utf8"));
  const problem = !fields
    ? "no front matter; start the file with a --- block holding name and description"
    : fields.name !== name
      ? `name "${fields.name ?? ""}" must equal the directory name "${name}"`
      : !SKILL_NAME.test(name)
        ? `name "${name}" must be lower-case words joined by hyphens`
        : !fields.description?.trim()
          ? "description is missing or empty"
          : undefined;
  if (problem) {
    warn(`skill ${file}: ${problem}; skipped`);
    return undefined;
  }
  return { name, description: fields!.description.trim(), dir: await realpath(dir) };
}

/** A source is a skill itself when it holds SKILL.md; otherwise its direct children are inspected (WS-18). */
async function fromSource(source: string, warn: (message: string) => void): Promise<Skill[]> {
  if (await isFile(join(source, "SKILL.md"))) return [await loadSkill(source, warn)].filter((skill) => skill !== undefined);
  const entries = await readdir(source, { withFileTypes: true }).catch(() => []);
  const skills: Skill[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || !(await isFile(join(source, entry.name, "SKILL.md")))) continue;
    const skill = await loadSkill(join(source, entry.name), warn);
    if (skill) skills.push(skill);
  }
  return skills;
}

/**
 * The skills of a runtime: `<dataPath>/skills`, then the profile's own dirs in order, merged by name so the
 * profile wins (WS-18). A missing profile dir is warned about; a missing `<dataPath>/skills` is normal.
 */
export async function discoverSkills(sources: SkillSources): Promise<Skill[]> {
  const merged = new Map<string, Skill>();
  for (const skill of await fromSource(join(sources.dataPath, "skills"), sources.warn)) merged.set(skill.name, skill);
  for (const dir of sources.dirs) {
    const source = resolve(sources.root, dir);
    if (!(await stat(source).catch(() => undefined))?.isDirectory()) {
      sources.warn(`skills directory ${source} does not exist; skipped`);
      continue;
    }
    for (const skill of await fromSource(source, sources.warn)) merged.set(skill.name, skill);
  }
  return [...merged.values()].sort((a, b) => a.name.localeCompare(b.name));
}
