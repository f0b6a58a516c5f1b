import type { Context } from "koishi";
import type { IshikiService } from "../service.js";
import { defineAuthorityTexts } from "./authority.js";
import type { CommandSettings } from "./command-kernel.js";
import { registerMute } from "./mute.js";
import { registerPreview } from "./preview.js";
import { registerResetCommand } from "./reset.js";
import { registerStatusCommand } from "./status.js";
import { registerUsageCommand } from "./usage.js";
import { registerWhy } from "./why.js";
import { whyLocales } from "./why-locales.js";

export type { CommandKernel, CommandSettings } from "./command-kernel.js";

/** The owner's `ishiki.*` commands (issue 22), one file each; the returned function removes them all. */
export function registerCommands(ctx: Context, ishiki: IshikiService, settings: CommandSettings): () => void {
  const disposers = [
    // The refusal every command answers without a user table (authority.ts).
    defineAuthorityTexts(ctx),
    ctx.i18n.define("zh-CN", whyLocales["zh-CN"]),
    ctx.i18n.define("en-US", whyLocales["en-US"]),
    registerStatusCommand(ctx, ishiki, settings),
    registerUsageCommand(ctx, ishiki, settings),
    registerResetCommand(ctx, ishiki, settings),
    registerWhy(ctx, ishiki, settings),
    registerMute(ctx, ishiki, settings),
    registerPreview(ctx, ishiki, settings),
  ];
  return () => {
    for (const dispose of [...disposers].reverse()) dispose();
  };
}
