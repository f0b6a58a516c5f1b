import { WorkspaceExtension } from "./extension.js";

export { WorkspaceExtension };
export { WorkspacePluginConfig, WorkspaceSettings } from "./settings.js";
export { Sandbox, type SandboxOptions } from "./sandbox.js";
export { parseMount, prepareMounts, type HostMount, type MountDeclaration } from "./mounts.js";
export { discoverSkills, type SkillSources } from "./skills/discover.js";
export type { Skill } from "./skills/skill.js";
export { WorkspaceScheme } from "./schemes/workspace-scheme.js";
export { SkillScheme } from "./schemes/skill-scheme.js";
export { workspaceInstructions } from "./instructions.js";
export { runCommand } from "./tools/bash.js";
export type { BashResult } from "./tools/bash-result.js";

export const name = "ishiki-workspace";
export const usage = [
  "Gives each Ishiki runtime whose profile enables `extends.workspace` a sandboxed bash shell over a virtual file system,",
  "the file tools `read_file`, `write_file` and `edit_file`, skills under `/home/skills` and the `workspace://` and",
  "`skill://` resources. See docs/workspace.md.",
].join(" ");
export default WorkspaceExtension;
