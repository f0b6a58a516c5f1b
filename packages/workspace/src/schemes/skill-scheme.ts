import { join } from "node:path";
import { containPath, FileScheme, ResourceError } from "koishi-plugin-ishiki";
import type { FileEntry, FileUrl } from "koishi-plugin-ishiki";
import type { Skill } from "../skills/skill.js";

/** `skill://<name>/<relative path>` (WS-22): a skill's files, `SKILL.md` by default, confined to its directory. */
export class SkillScheme extends FileScheme {
  public readonly scheme = "skill";

  public constructor(private readonly skills: readonly Skill[]) {
    super();
  }

  protected async open(url: FileUrl): Promise<FileEntry> {
    const skill = this.skills.find((candidate) => candidate.name === url.authority);
    if (!skill) {
      const available = this.skills.map((candidate) => candidate.name).join(", ") || "none";
      throw new ResourceError("resource_not_found", `skill "${url.authority.slice(0, 200)}" not found; available: ${available}`);
    }
    const segments = url.segments.length > 0 ? url.segments : ["SKILL.md"];
    return { path: await containPath(skill.dir, join(skill.dir, ...segments), "skill") };
  }
}
