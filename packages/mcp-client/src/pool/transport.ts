import { isAbsolute, resolve } from "node:path";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { NamedServer } from "../config/load.js";
import { isRemoteServer } from "../config/server-config.js";

/**
 * A fresh transport for one connection attempt (MC-4). A stdio child gets only the configured `env` keys over the
 * SDK's minimal safe set, never the host environment; its stderr is piped to `onStderr` instead of the host's.
 */
export function createTransport(server: NamedServer, onStderr: (line: string) => void): Transport {
  const { config } = server;
  if (isRemoteServer(config)) {
    const requestInit: RequestInit = { headers: config.headers };
    const url = new URL(config.url);
    return config.type === "http" ? new StreamableHTTPClientTransport(url, { requestInit }) : new SSEClientTransport(url, { requestInit });
  }
  const cwd = config.cwd === undefined ? undefined : isAbsolute(config.cwd) ? config.cwd : resolve(server.baseDir, config.cwd);
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(cwd === undefined ? {} : { cwd }),
    stderr: "pipe",
  });
  // Piped stderr must be drained, or a chatty child blocks on a full pipe.
  transport.stderr?.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) if (line.trim() !== "") onStderr(line);
  });
  return transport;
}
