import { Schema } from "koishi";
import type { Context } from "koishi";

export const name = "ishiki-workspace";
export const inject = ["ishiki"];

export interface Config {}

export const Config: Schema<Config> = Schema.object({}).i18n({
  "zh-CN": { $description: "工作区 扩展尚在建设中，暂无配置项。" },
  "en-US": { $description: "The workspace extension is under construction; it has no options yet." },
});

// The extension API (Extension, ExtensionHost) is not built yet; until it is, the plugin only says so.
export function apply(ctx: Context): void {
  ctx.logger("ishiki.ext.workspace").info("loaded; its tools arrive with the Ishiki extension API");
}
