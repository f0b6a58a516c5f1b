import { Logger, Schema } from "koishi";

/** The plugin's own Koishi config, independent of any profile; servers live in `.mcp.json` / `mcp.json`. */
export interface McpPluginConfig {
  logLevel: number;
  /** How long a pool stays open after its last runtime stopped (MC-7). */
  idleCloseMs: number;
}

export const McpPluginConfig: Schema<McpPluginConfig> = Schema.object({
  logLevel: Schema.natural().max(3).default(Logger.INFO),
  idleCloseMs: Schema.natural().default(60_000),
}).i18n({
  "zh-CN": {
    logLevel: "日志等级：0 静默，1 错误，2 信息（配置来源、连接与重连），3 调试（工具列表刷新与每次调用）。",
    idleCloseMs: "profile 的最后一个 runtime 停止后，MCP 连接池保持打开的时间（毫秒）；期间再次使用则继续复用。",
  },
  "en-US": {
    logLevel: "Log level: 0 silent, 1 errors, 2 info (config source, connects, reconnects), 3 debug (relists and every call).",
    idleCloseMs: "How long a profile's MCP pool stays open after its last runtime stopped, in ms; a new runtime in that window reuses it.",
  },
});
