import type { HostMount } from "./mounts.js";
import { RESOURCE_MOUNT, SKILLS } from "./sandbox.js";
import type { WorkspaceSettings } from "./settings.js";
import type { Skill } from "./skills/skill.js";

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
}

/**
 * The workspace's prompt text (WS-24): a `## Workspace` section and, when there are skills, a `## Skills`
 * section. It depends only on the runtime's configuration, so the instance builds it once and the prompt
 * prefix stays stable across turns.
 */
export function workspaceInstructions(settings: WorkspaceSettings, mounts: readonly HostMount[], skills: readonly Skill[]): string {
  const mountLines = mounts.map((mount) => `${mount.target} (${mount.readOnly ? "read-only" : "read-write"})`);
  const runtimes = [
    settings.javascript ? "`js-exec` runs JavaScript/TypeScript" : "`js-exec` is off",
    settings.python ? "`python3` runs Python" : "`python3` is off",
  ];
  const lines = [
    "## Workspace",
    "You have a sandboxed bash shell: bash and common Unix tools interpreted over a virtual file system, not a real Linux machine.",
    `- Working directory: ${settings.cwd}; /home/workspace is writable and its files persist across calls and turns.`,
    `- /home is your runtime home (read-only). ${RESOURCE_MOUNT} holds stored resources, read-only: assets/<id> and artifacts/<tool>/<name>.`,
    `- Mounts: ${mountLines.length > 0 ? mountLines.join(", ") : "none"}.`,
    `- Network: ${settings.network ? "curl reaches public internet addresses only" : "off (no curl)"}.`,
    `- Each command stops after ${settings.timeoutMs} ms with exit code 124; each output stream is capped at ${formatBytes(settings.maxExecutionOutputBytes)}.`,
    "- Every bash call starts a fresh shell: variables, functions and cd do not persist; file changes do.",
    `- ${runtimes.join("; ")}.`,
    "- Use bash for commands, read_file/write_file for whole text files and edit_file to replace exact text in a file.",
    '- Read any sandbox file as a resource with read({ url: "workspace:///home/workspace/<file>" }): pages of large files, line ranges (<url>:A-B), images and other binary files.',
  ];
  if (skills.length > 0) {
    lines.push(
      "",
      "## Skills",
      `Skills are instructions and files for specific tasks, mounted read-only under ${SKILLS}. Before using a skill, read its SKILL.md (read_file ${SKILLS}/<name>/SKILL.md, or read({ url: "skill://<name>" })) and follow it.`,
      ...skills.map((skill) => `- ${skill.name}: ${skill.description} (${SKILLS}/${skill.name})`),
    );
  }
  return lines.join("\n");
}
