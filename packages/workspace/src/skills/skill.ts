/** A valid skill (WS-18, WS-19): a directory with a `SKILL.md` whose front matter names it. */
export interface Skill {
  /** Lower-case, hyphen-separated; equals the directory name. */
  name: string;
  description: string;
  /** Real host path of the skill directory. */
  dir: string;
}
