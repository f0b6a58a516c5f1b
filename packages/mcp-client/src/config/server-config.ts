import { Schema } from "koishi";

/** Fields every server entry has, whatever its transport (MC-3). */
export interface ServerCommon {
  enabled: boolean;
  /** Per call, in ms; 0 = unlimited; unset = the SDK default. */
  timeout?: number;
  connectTimeoutMs: number;
  /** Include the server's instructions in the runtime's instructions, evaluated per turn. */
  instructions: boolean;
}

export interface StdioServerConfig extends ServerCommon {
  type?: "stdio";
  command: string;
  args: string[];
  /** The only variables the child sees besides the SDK's minimal safe set. */
  env: Record<string, string>;
  /** Relative to the directory of the file that declares the server. */
  cwd?: string;
}

export interface RemoteServerConfig extends ServerCommon {
  /** `http` is streamable HTTP; `sse` the legacy HTTP+SSE transport. */
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

const common = {
  enabled: Schema.boolean().default(true),
  timeout: Schema.natural(),
  connectTimeoutMs: Schema.natural().min(1).default(30_000),
  instructions: Schema.boolean().default(true),
};

// Required fields sit on their branch of the union, so a bare `{ url }` matches no branch (MC-4).
export const StdioServerConfig: Schema<StdioServerConfig> = Schema.object({
  type: Schema.const("stdio" as const),
  command: Schema.string().required(),
  args: Schema.array(Schema.string()).default([]),
  env: Schema.dict(Schema.string()).default({}),
  cwd: Schema.string(),
  ...common,
});

function remote<T extends "http" | "sse">(type: T): Schema<RemoteServerConfig> {
  return Schema.object({
    type: Schema.const(type).required(),
    url: Schema.string().required(),
    headers: Schema.dict(Schema.string()).default({}),
    ...common,
  }) as unknown as Schema<RemoteServerConfig>;
}

export const HttpServerConfig = remote("http");
export const SseServerConfig = remote("sse");

/** One entry of `mcpServers`: the transport union (MC-4). */
export const ServerConfig = Schema.union([StdioServerConfig, HttpServerConfig, SseServerConfig]) as unknown as Schema<ServerConfig>;

export function isRemoteServer(config: ServerConfig): config is RemoteServerConfig {
  return config.type === "http" || config.type === "sse";
}

/** The branch a raw entry claims by its `type`, so a rejection names the field that is wrong rather than the union. */
export function serverBranch(value: unknown): Schema<ServerConfig> {
  const type = typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
  const branch = type === "http" ? HttpServerConfig : type === "sse" ? SseServerConfig : StdioServerConfig;
  return branch as unknown as Schema<ServerConfig>;
}
