import { Schema } from "koishi";

/**
 * The top level of `.mcp.json` / `mcp.json` (MC-2). Server entries are checked one by one afterwards
 * (`ServerConfig`), so one bad entry skips only that server (MC-5).
 */
export interface McpFile {
  mcpServers: Record<string, unknown>;
  /** Never connected. */
  disabledServers: string[];
  /** Forced on, overriding `enabled: false` and `disabledServers`. */
  enabledServers: string[];
}

export const McpFile: Schema<McpFile> = Schema.object({
  $schema: Schema.string(),
  mcpServers: Schema.dict(Schema.any()).default({}),
  disabledServers: Schema.array(Schema.string()).default([]),
  enabledServers: Schema.array(Schema.string()).default([]),
}) as unknown as Schema<McpFile>;
