import type { Context } from "koishi";
import type { CommandKernel, CommandSettings } from "./command-kernel.js";
import { registerResetCommand } from "./reset.js";
import { registerStatusCommand } from "./status.js";
import { registerUsageCommand } from "./usage.js";

export type { CommandKernel, CommandSettings } from "./command-kernel.js";

/** The owner's `ishiki.*` commands (issue 22), one file each; the returned function removes them all. */
export function registerCommands(ctx: Context, kernel: CommandKernel, settings: CommandSettings): () => void {
  const disposers = [
    registerStatusCommand(ctx, kernel, settings),
    registerUsageCommand(ctx, kernel, settings),
    registerResetCommand(ctx, kernel, settings),
  ];
  return () => {
    for (const dispose of [...disposers].reverse()) dispose();
  };
}
