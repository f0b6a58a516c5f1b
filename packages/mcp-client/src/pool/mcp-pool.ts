import type { Logger } from "koishi";
import type { ToolSet } from "koishi-plugin-ishiki";
import type { NamedServer } from "../config/load.js";
import { resourceInstructions } from "../resources/catalog.js";
import { createMcpTool } from "../tools/mcp-tool.js";
import { exposedToolNames } from "../tools/names.js";
import { ServerConnection } from "./server-connection.js";

/**
 * The MCP connections of one profile root, shared by its runtimes (MC-6, MC-7). Runtimes `acquire` it in
 * `invoke` and `release` it in `stop`; `onIdle` fires `idleMs` after the last release unless it is acquired
 * again. The tool set is rebuilt only when a server's tools or state changed, so assemblies stay stable.
 */
export class McpPool {
  public readonly connections: ServerConnection[];
  /**
   * Settles when every server's first attempt connected or failed, or `waitMs` after creation, whichever is
   * first: the bound of what the first assembly waits for. A slower server joins a later turn.
   */
  public readonly ready: Promise<void>;
  private users = 0;
  private idle: NodeJS.Timeout | undefined;
  private revision = 0;
  private built: { revision: number; tools: ToolSet } | undefined;
  private closing: Promise<void> | undefined;

  public constructor(
    servers: NamedServer[],
    private readonly logger: Logger,
    private readonly idleMs: number,
    private readonly onIdle: () => void,
    waitMs: number,
  ) {
    this.connections = servers.map((server) => new ServerConnection(server, logger, () => (this.revision += 1)));
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)).unref());
    this.ready = Promise.race([Promise.all(this.connections.map((connection) => connection.firstAttempt)), bound]).then(() => clearTimeout(timer));
  }

  public get closed(): boolean {
    return this.closing !== undefined;
  }

  public acquire(): void {
    this.users += 1;
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
  }

  public release(): void {
    this.users = Math.max(0, this.users - 1);
    if (this.users > 0 || this.closed) return;
    this.idle = setTimeout(() => this.onIdle(), this.idleMs);
    this.idle.unref();
  }

  /** The server of a name or of an ASCII-safe prefix (what `mcp://` URLs carry). */
  public connection(name: string): ServerConnection | undefined {
    return this.connections.find((connection) => connection.name === name) ?? this.connections.find((connection) => connection.prefix === name);
  }

  /**
   * Every server's tools, sorted by name (MC-10). A server with a name another server (earlier in config
   * order) already exposes is skipped whole, with an error naming both (MC-11).
   */
  public tools(): ToolSet {
    if (this.built?.revision === this.revision) return this.built.tools;
    const owner = new Map<string, string>();
    const entries: Array<[string, ToolSet[string]]> = [];
    for (const connection of this.connections) {
      const names = exposedToolNames(connection.name, connection.tools.map((tool) => tool.name));
      const clash = names.find((name) => owner.has(name));
      if (clash !== undefined) {
        this.logger.error('MCP server "%s" skipped: tool name "%s" collides with server "%s"', connection.name, clash, owner.get(clash));
        continue;
      }
      connection.tools.forEach((definition, index) => {
        owner.set(names[index], connection.name);
        entries.push([names[index], createMcpTool(connection, definition, names[index])]);
      });
    }
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.built = { revision: this.revision, tools: Object.fromEntries(entries) };
    return this.built.tools;
  }

  /**
   * Each connected server's instructions (MC-15), then the resource section naming the connected servers'
   * resources and templates as `mcp://` URLs; `undefined` when there is neither.
   */
  public instructions(): string | undefined {
    const parts = this.connections.flatMap((connection) => {
      const text = connection.instructions;
      return text === undefined ? [] : [`### MCP server ${connection.name}\n${text}`];
    });
    const resources = resourceInstructions(this.connections.filter((connection) => connection.state === "connected"));
    if (resources !== undefined) parts.push(resources);
    return parts.length === 0 ? undefined : parts.join("\n\n");
  }

  /** Closes every connection at once; stdio children end. Idempotent. */
  public close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.closing ??= Promise.all(this.connections.map((connection) => connection.close())).then(() => undefined);
    return this.closing;
  }
}
