import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import type { Context } from "koishi";

/** The few members of Koishi's `server` service (a Koa router) publishing needs. */
interface KoaContext {
  params: Record<string, string>;
  status: number;
  body: unknown;
  type: string;
  set(field: string, value: string): void;
}

interface ServerService {
  readonly selfUrl: string;
  get(path: string, middleware: (koa: KoaContext) => void): unknown;
}

interface Published {
  bytes: Uint8Array;
  mediaType: string;
  runtimeId: string;
  filename: string;
  timer: NodeJS.Timeout;
}

export interface PublishRequest {
  bytes: Uint8Array;
  mediaType: string;
  filename: string;
  runtimeId: string;
  ttlSeconds: number;
  /** `publish.path`, e.g. `/ishiki/files`. */
  path: string;
  baseUrl?: string;
}

/**
 * Temporary URLs on Koishi's HTTP server (OB-19, OB-20): `GET`/`HEAD <path>/<token>/<filename>` serves bytes
 * snapshotted at publish time with their media type and `Cache-Control: no-store`, until the TTL ends or the
 * publishing runtime stops; anything else under the path is 404, so nothing can be listed.
 */
export class FilePublisher {
  private readonly files = new Map<string, Published>();
  private readonly routes = new Set<string>();

  public constructor(private readonly ctx: Context) {}

  /** Koishi's `server`, when that plugin is loaded. */
  private get server(): ServerService | undefined {
    return (this.ctx as unknown as { server?: ServerService }).server;
  }

  public get available(): boolean {
    return this.server !== undefined;
  }

  /** Publishes a snapshot of the bytes; returns its URL. Requires `available`. */
  public publish(request: PublishRequest): string {
    const server = this.server!;
    const path = `/${request.path.replace(/^\/+|\/+$/g, "")}`;
    this.route(server, path);
    const token = randomBytes(32).toString("base64url");
    const timer = setTimeout(() => this.files.delete(token), request.ttlSeconds * 1000);
    timer.unref?.();
    this.files.set(token, { bytes: Buffer.from(request.bytes), mediaType: request.mediaType, runtimeId: request.runtimeId, filename: request.filename, timer });
    const base = (request.baseUrl ?? server.selfUrl).replace(/\/+$/, "");
    return `${base}${path}/${token}/${encodeURIComponent(request.filename)}`;
  }

  /** Revokes every URL a runtime published (OB-20). */
  public revokeRuntime(runtimeId: string): void {
    for (const [token, file] of this.files) {
      if (file.runtimeId !== runtimeId) continue;
      clearTimeout(file.timer);
      this.files.delete(token);
    }
  }

  public dispose(): void {
    for (const file of this.files.values()) clearTimeout(file.timer);
    this.files.clear();
  }

  private route(server: ServerService, path: string): void {
    if (this.routes.has(path)) return;
    this.routes.add(path);
    // Registered through the extension's context, so the route goes when the plugin is disposed.
    server.get(`${path}/:token/:filename`, (koa) => {
      const file = this.files.get(koa.params.token);
      // The token is the capability; the filename segment only names the download.
      if (!file) {
        koa.status = 404;
        koa.body = "not found";
        return;
      }
      koa.set("Cache-Control", "no-store");
      koa.type = file.mediaType;
      koa.body = Buffer.from(file.bytes);
    });
  }
}
