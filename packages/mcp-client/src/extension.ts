import { Service } from "koishi";
import type { Context } from "koishi";
import { Extension } from "koishi-plugin-ishiki";
import type { ExtensionHost, ExtensionInstance, ToolSet } from "koishi-plugin-ishiki";
import { McpScheme } from "./mcp-scheme.js";
import { PoolRegistry } from "./pool/pool-registry.js";
import { McpInstanceSettings, McpPluginConfig } from "./settings.js";

/**
 * The `mcp-client` extension (spec 10): the MCP servers of a profile's `mcp.json` (or the data directory's
 * `.mcp.json`) as tools, their instructions, and `mcp://` resources. Connections live in one pool per profile
 * root on this service; each runtime holds the pool from `invoke` to `stop`.
 */
export class McpClientExtension extends Extension<McpInstanceSettings> {
  public static readonly inject = ["ishiki"];
  public override readonly Schema = McpInstanceSettings;
  private readonly registry: PoolRegistry;

  public constructor(ctx: Context, config: McpClientExtension.Config) {
    super(ctx, "mcp-client");
    this.logger.level = config.logLevel;
    this.registry = new PoolRegistry(this.logger, config.idleCloseMs, config.connectWaitMs);
    ctx.on("dispose", () => this.registry.closeAll());
  }

  public async [Service.invoke](host: ExtensionHost): Promise<ExtensionInstance> {
    const pool = await this.registry.acquire(host);
    const detach = host.resources.attach(new McpScheme(pool));
    let released = false;
    return {
      extendTools: async (): Promise<ToolSet> => {
        await pool.ready;
        return pool.tools();
      },
      extendInstructions: async () => {
        await pool.ready;
        // The kernel drops empty parts; the contract's type has no `undefined`.
        return pool.instructions() ?? "";
      },
      stop: () => {
        if (released) return;
        released = true;
        detach();
        pool.release();
      },
    };
  }
}

export namespace McpClientExtension {
  export type Config = McpPluginConfig;
  export const Config = McpPluginConfig;
}
