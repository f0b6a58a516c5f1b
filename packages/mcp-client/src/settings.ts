import { Logger, Schema } from "koishi";

/**
 * `extends.mcp-client.config` of a profile: nothing to set, the servers live in the profile's `mcp.json` (or the
 * data directory's `.mcp.json`). Declared so the console's extends form names the extension and says so.
 */
export type McpInstanceSettings = Record<string, never>;

export const McpInstanceSettings: Schema<McpInstanceSettings> = Schema.object({} as Record<string, never>).i18n({
  "zh-CN": { $description: "MCP 客户端（ishiki-mcp-client）：服务器写在 profile 的 mcp.json（或数据目录的 .mcp.json）中，这里没有可设置项" },
  "en-US": { $description: "MCP client (ishiki-mcp-client): servers are declared in the profile's mcp.json (or the data directory's .mcp.json); nothing to set here" },
});

/** The plugin's own Koishi config, independent of any profile; servers live in `.mcp.json` / `mcp.json`. */
export interface McpPluginConfig {
  logLevel: number;
  /** How long a pool stays open after its last runtime stopped (MC-7). */
  idleCloseMs: number;
  /** How long a new pool's first turn waits for servers still on their first connect (MC-6). */
  connectWaitMs: number;
}

export const McpPluginConfig: Schema<McpPluginConfig> = Schema.object({
  logLevel: Schema.natural().max(3).default(Logger.INFO),
  idleCloseMs: Schema.natural().default(60_000),
  connectWaitMs: Schema.natural().default(2_000),
}).i18n({
  "zh-CN": {
    logLevel: "日志等级：0 静默，1 错误，2 信息（配置来源、连接与重连），3 调试（工具列表刷新与每次调用）。",
    idleCloseMs: "profile 的最后一个 runtime 停止后，MCP 连接池保持打开的时间（毫秒）；期间再次使用则继续复用。",
    connectWaitMs: "新建连接池后，第一轮对话最多等待仍在首次连接的服务器多久（毫秒）；更慢的服务器从之后的轮次加入，之后的轮次从不等待。",
  },
  "en-US": {
    logLevel: "Log level: 0 silent, 1 errors, 2 info (config source, connects, reconnects), 3 debug (relists and every call).",
    idleCloseMs: "How long a profile's MCP pool stays open after its last runtime stopped, in ms; a new runtime in that window reuses it.",
    connectWaitMs: "How long the first turn of a new pool waits for servers still on their first connect, in ms; slower servers join a later turn, and later turns never wait.",
  },
});
