import { Buffer } from "node:buffer";
import { ToolError } from "koishi-plugin-ishiki";
import type { ResourceCenter } from "koishi-plugin-ishiki";
import type { PublishSettings } from "../settings.js";
import type { FilePublisher } from "./file-publisher.js";
import { rewriteMediaParams } from "./media-fields.js";

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

export interface MediaResolverOptions {
  resources: Pick<ResourceCenter, "resolve" | "listSchemes">;
  publisher: FilePublisher;
  settings: PublishSettings;
  runtimeId: string;
}

/**
 * OB-18: resource URLs of the runtime's center in file parameters become temporary URLs when publishing is
 * on and Koishi's server is loaded, else `base64://` up to `inlineMaxBytes`; `http(s):` and `base64://` pass,
 * `file:` is refused, and anything else (a file name the implementation knows) passes unchanged.
 */
export class MediaResolver {
  public constructor(private readonly options: MediaResolverOptions) {}

  public resolveParams(params: Record<string, unknown>, mediaParams: readonly string[]): Promise<Record<string, unknown>> {
    return rewriteMediaParams(params, mediaParams, (value) => this.resolve(value));
  }

  private async resolve(value: string): Promise<string> {
    const scheme = SCHEME.exec(value)?.[1].toLowerCase();
    if (scheme === "file") throw new ToolError(`${value}: file: URLs are refused; pass a resource URL, an http(s) URL or base64://`);
    if (scheme === undefined || scheme === "http" || scheme === "https" || scheme === "base64" || !this.options.resources.listSchemes().includes(scheme)) return value;
    const payload = await this.options.resources.resolve(value);
    const bytes = payload.type === "file" ? payload.bytes : Buffer.from(payload.text, "utf8");
    const mediaType = payload.mediaType ?? "application/octet-stream";
    const { settings, publisher } = this.options;
    if (settings.enabled && publisher.available) {
      const filename = payload.filename ?? (value.split(/[/?#:]/).filter(Boolean).at(-1) || "file");
      return publisher.publish({ bytes, mediaType, filename, runtimeId: this.options.runtimeId, ttlSeconds: settings.ttlSeconds, path: settings.path, ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}) });
    }
    if (bytes.length <= settings.inlineMaxBytes) return `base64://${Buffer.from(bytes).toString("base64")}`;
    throw new ToolError(`${value}: file too large to inline and publishing is unavailable`);
  }
}
