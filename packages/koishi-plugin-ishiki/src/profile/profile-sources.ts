import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";

/** A profile as written, before validation, and where it was written. */
export interface ProfileSource {
  id: string;
  raw: unknown;
  /** `koishi.yml` or the profile file's path; error lines name it. */
  origin: string;
}

/** A profile that cannot be loaded; the message is the text after `[<id>] profile skipped: `. */
export interface ProfileSourceError {
  id: string;
  message: string;
}

const FILE_NAMES = ["profile.yml", "profile.yaml"];

/**
 * The inline profiles and those of `<dataPath>/profiles/<id>/profile.yml|yaml` (spec 08 KP-3), in code-point
 * order of their ids whatever their source (KP-4). An id defined both ways is an error for that profile only.
 */
export async function loadProfileSources(dataPath: string, inline: Record<string, unknown>): Promise<{ sources: ProfileSource[]; errors: ProfileSourceError[] }> {
  const sources = new Map<string, ProfileSource>();
  const errors: ProfileSourceError[] = [];
  for (const [id, raw] of Object.entries(inline)) sources.set(id, { id, raw, origin: "koishi.yml" });
  for (const id of await profileDirectories(join(dataPath, "profiles"))) {
    const found = await readProfileFile(join(dataPath, "profiles", id));
    if (found === undefined) continue;
    if (sources.has(id)) {
      sources.delete(id);
      errors.push({ id, message: `defined in koishi.yml and in ${found.path}` });
    } else if ("error" in found) {
      errors.push({ id, message: `${found.path}: ${found.error}` });
    } else {
      sources.set(id, { id, raw: found.raw, origin: found.path });
    }
  }
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return { sources: [...sources.values()].sort(byId), errors: errors.sort(byId) };
}

async function profileDirectories(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

type FileResult = { path: string; raw: unknown } | { path: string; error: string };

async function readProfileFile(dir: string): Promise<FileResult | undefined> {
  for (const name of FILE_NAMES) {
    const path = join(dir, name);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      return { path, error: `cannot be read: ${(error as Error).message}` };
    }
    try {
      return { path, raw: parse(text) ?? {} };
    } catch (error) {
      return { path, error: `invalid YAML: ${(error as Error).message.split("\n")[0]}` };
    }
  }
  return undefined;
}
