import { Service } from "koishi";
import type { Context } from "koishi";
import { Extension } from "koishi-plugin-ishiki";
import type { ExtensionHost, ExtensionInstance, ToolSet } from "koishi-plugin-ishiki";
import { workspaceInstructions } from "./instructions.js";
import { prepareMounts } from "./mounts.js";
import { Sandbox } from "./sandbox.js";
import { SkillScheme } from "./schemes/skill-scheme.js";
import { WorkspaceScheme } from "./schemes/workspace-scheme.js";
import { WorkspacePluginConfig, WorkspaceSettings } from "./settings.js";
import { discoverSkills } from "./skills/discover.js";
import { createBashTool } from "./tools/bash.js";
import { createEditFileTool, createReadFileTool, createWriteFileTool } from "./tools/file-tools.js";

/**
 * The `workspace` extension (spec 09): per runtime, a lazily built just-bash sandbox shared by the tools
 * `bash`, `read_file`, `write_file`, `edit_file`, the `workspace://` and `skill://` schemes and the
 * instructions. Mounts and skills are validated in `invoke`, so a bad declaration fails the runtime's creation.
 */
export class WorkspaceExtension extends Extension<WorkspaceSettings> {
  public static readonly inject = ["ishiki"];
  public override readonly Schema = WorkspaceSettings;

  public constructor(ctx: Context, config: WorkspaceExtension.Config) {
    super(ctx, "workspace");
    this.logger.level = config.logLevel;
  }

  public async [Service.invoke](host: ExtensionHost, settings: WorkspaceSettings): Promise<ExtensionInstance> {
    if (!settings.cwd.startsWith("/")) throw new Error(`workspace cwd "${settings.cwd}": must be an absolute sandbox path; e.g. /home/workspace`);
    const mounts = await prepareMounts(settings.mounts, host.root);
    const skills = await discoverSkills({ dataPath: host.dataPath, root: host.root, dirs: settings.skills, warn: (message) => host.logger.warn(message) });
    const sandbox = new Sandbox({ home: host.home, settings, mounts, skills, resources: host.resources });
    const detach = [host.resources.attach(new WorkspaceScheme(sandbox)), host.resources.attach(new SkillScheme(skills))];
    const instructions = workspaceInstructions(settings, mounts, skills);
    const tools: ToolSet = {
      bash: createBashTool(sandbox, settings),
      read_file: createReadFileTool(sandbox, settings.cwd),
      write_file: createWriteFileTool(sandbox, settings.cwd),
      edit_file: createEditFileTool(sandbox, settings.cwd),
    };
    return {
      extendInstructions: () => instructions,
      extendTools: () => tools,
      stop: () => {
        for (const undo of detach) undo();
      },
    };
  }
}

export namespace WorkspaceExtension {
  export type Config = WorkspacePluginConfig;
  export const Config = WorkspacePluginConfig;
}
