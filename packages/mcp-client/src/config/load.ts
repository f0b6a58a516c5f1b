import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { McpFile } from "./mcp-file.js";
import { ServerConfig, serverBranch } from "./server-config.js";

/** A server entry that passed validation and the enable lists, in config order. */
export interface NamedServer {
  name: string;
  config: ServerConfig;
  /** Directory of the declaring file: the base of a relative `cwd`. */
  baseDir: string;
}

export interface McpConfigLog {
  info(message: string): void;
  error(message: string): void;
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Schemastery quotes the rejected value (`but got …`); under `env` and `headers` that value may be a secret,
 * and it never helps to repeat it, so it is cut everywhere (MC-17).
 */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/ but got [\s\S]*$/, "").replace(/^\$\./, "");
}

function validateServer(path: string, name: string, raw: unknown, log: McpConfigLog): ServerConfig | undefined {
  try {
    return ServerConfig(raw as ServerConfig);
  } catch (union) {
    let detail = reason(union);
    try {
      serverBranch(raw)(raw as ServerConfig);
    } catch (branch) {
      detail = reason(branch);
    }
    log.error(`${path}: server "${name}" skipped: ${detail}`);
    return undefined;
  }
}

/**
 * The servers of one profile (MC-1, MC-2, MC-5): `<root>/mcp.json` when present replaces `<dataPath>/.mcp.json`
 * entirely. A file that is not JSON or has a wrong top level yields no servers; a wrong entry is skipped. Errors
 * are logged as one line naming the file (and server) and never thrown.
 */
export async function loadMcpConfig(dataPath: string, root: string, log: McpConfigLog): Promise<NamedServer[]> {
  let path = join(root, "mcp.json");
  let text: string | undefined;
  try {
    text = await readIfPresent(path);
    if (text === undefined) {
      path = join(dataPath, ".mcp.json");
      text = await readIfPresent(path);
    }
  } catch (error) {
    log.error(`${path}: unreadable: ${(error as Error).message}; no MCP servers for this profile`);
    return [];
  }
  if (text === undefined) {
    log.info(`no MCP config: neither ${join(root, "mcp.json")} nor ${path} exists`);
    return [];
  }
  let file: McpFile;
  try {
    file = McpFile(JSON.parse(text) as McpFile);
  } catch (error) {
    const why = error instanceof SyntaxError ? `invalid JSON: ${error.message}` : reason(error);
    log.error(`${path}: ${why}; no MCP servers for this profile`);
    return [];
  }
  const servers: NamedServer[] = [];
  let declared = 0;
  for (const [name, raw] of Object.entries(file.mcpServers)) {
    declared += 1;
    const config = validateServer(path, name, raw, log);
    if (!config) continue;
    const on = file.enabledServers.includes(name) || (config.enabled && !file.disabledServers.includes(name));
    if (on) servers.push({ name, config, baseDir: dirname(path) });
  }
  log.info(`MCP config ${path}: ${declared} server(s) declared, ${servers.length} enabled`);
  return servers;
}
