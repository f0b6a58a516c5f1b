import { McpClientExtension } from "./extension.js";

export { McpClientExtension };
export { McpInstanceSettings, McpPluginConfig } from "./settings.js";
export { McpFile } from "./config/mcp-file.js";
export { HttpServerConfig, ServerConfig, SseServerConfig, StdioServerConfig } from "./config/server-config.js";
export type { RemoteServerConfig, ServerCommon } from "./config/server-config.js";
export { loadMcpConfig, type McpConfigLog, type NamedServer } from "./config/load.js";
export { McpPool } from "./pool/mcp-pool.js";
export { ServerConnection } from "./pool/server-connection.js";
export { McpScheme } from "./mcp-scheme.js";
export { exposedToolNames, foldToolName, MAX_TOOL_NAME, serverPrefix } from "./tools/names.js";

export const name = "ishiki-mcp-client";
export const usage = [
  "为启用 `extends.mcp-client` 的 Ishiki profile 接入 MCP 服务器：工具以 `<server>-<tool>` 的名字交给模型，",
  "服务器说明并入指令，资源可用 `read` 读取 `mcp://<server>/<uri>`。",
  "服务器写在 `<dataPath>/.mcp.json`（全部 profile 的基线），或 `<profile>/mcp.json`（存在时整体替换基线）；格式见 docs/mcp.md。",
  "",
  "Connects the MCP servers of each Ishiki profile that enables `extends.mcp-client`: their tools reach the model as",
  "`<server>-<tool>`, their instructions join the runtime's instructions, and `read` opens `mcp://<server>/<uri>`.",
  "Servers are declared in `<dataPath>/.mcp.json` (the baseline) or `<profile>/mcp.json` (replaces it); see docs/mcp.md.",
].join("\n");
export default McpClientExtension;
