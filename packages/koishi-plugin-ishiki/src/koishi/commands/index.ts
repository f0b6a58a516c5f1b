import type { Context } from "koishi";
import type { IshikiService } from "../service.js";
import type { CommandOptions } from "./command-options.js";
import { registerMute } from "./mute.js";
import { registerPreview } from "./preview.js";
import { registerWhy } from "./why.js";
import { whyLocales } from "./why-locales.js";

/** The commands of helper `why` (issue 22); the lead merges this list with the other commands. */
export function registerWhyCommands(ctx: Context, ishiki: IshikiService, options: CommandOptions): () => void {
  const disposers = [ctx.i18n.define("zh-CN", whyLocales["zh-CN"]), ctx.i18n.define("en-US", whyLocales["en-US"]), registerWhy(ctx, ishiki, options), registerMute(ctx, ishiki, options), registerPreview(ctx, ishiki, options)];
  return () => {
    for (const dispose of disposers.reverse()) dispose();
  };
}
