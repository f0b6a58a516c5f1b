import type { Logger } from "koishi";
import type { ExtensionHost } from "koishi-plugin-ishiki";
import { loadMcpConfig } from "../config/load.js";
import { McpPool } from "./mcp-pool.js";

/**
 * The extension service's pools, one per profile root (MC-6, MC-7, XA-5). A pool is created on first use
 * (reading the profile's config then), closed `idleMs` after its last release, and closed at once when the
 * profile activation (`host.fiber`) is disposed.
 */
export class PoolRegistry {
  private readonly pools = new Map<string, Promise<McpPool>>();

  public constructor(
    private readonly logger: Logger,
    private readonly idleMs: number,
    private readonly waitMs: number,
  ) {}

  /** The root's pool with one more user; pair every call with `pool.release()`. */
  public async acquire(host: ExtensionHost): Promise<McpPool> {
    for (;;) {
      let pending = this.pools.get(host.root);
      if (!pending) {
        pending = this.create(host);
        this.pools.set(host.root, pending);
      }
      const pool = await pending;
      // A pool closing (idle or disposed) while this call waited is replaced, never handed out.
      if (!pool.closed) {
        pool.acquire();
        return pool;
      }
      if (this.pools.get(host.root) === pending) this.pools.delete(host.root);
    }
  }

  private async create(host: ExtensionHost): Promise<McpPool> {
    const servers = await loadMcpConfig(host.dataPath, host.root, {
      info: (message) => this.logger.info(`[${host.profileId}] ${message}`),
      error: (message) => this.logger.error(`[${host.profileId}] ${message}`),
    });
    const pool: McpPool = new McpPool(servers, this.logger, this.idleMs, () => {
      this.logger.info("[%s] MCP pool idle; closing", host.profileId);
      void this.drop(host.root, pool);
    }, this.waitMs);
    host.fiber.on("dispose", () => void this.drop(host.root, pool));
    return pool;
  }

  private async drop(root: string, pool: McpPool): Promise<void> {
    if ((await this.pools.get(root)) === pool) this.pools.delete(root);
    await pool.close();
  }

  /** Closes every pool (the service is going away). */
  public async closeAll(): Promise<void> {
    const pools = await Promise.all(this.pools.values());
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }
}
