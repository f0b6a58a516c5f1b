import { Buffer } from "node:buffer";
import { FileScheme, ResourceError, ToolError } from "koishi-plugin-ishiki";
import type { FileEntry, FileUrl, ResourceStore, TextPayload } from "koishi-plugin-ishiki";
import type { ActionRunner } from "../action-runner.js";
import { OneBotActionError } from "../onebot-client.js";
import { routeOf, ROUTE_HINT, type OneBotRoute } from "./onebot-routes.js";

/** Retcodes implementations use for a missing message, group, member or file. */
const NOT_FOUND_RETCODES = new Set([404, 1404]);
const NOT_FOUND_TEXT = /not found|not exist|不存在|找不到/i;

const MEDIA_TYPES = { json: "application/json", lines: "application/x-ndjson" } as const;

/**
 * Read-only `onebot://<selfId>/<path>` (OB-21, OB-22). A FileScheme, so line selectors page the JSON Lines
 * listings and `?view=meta` describes a URL without calling its action.
 */
export class OneBotScheme extends FileScheme {
  public readonly scheme = "onebot";

  public constructor(
    private readonly runner: ActionRunner,
    private readonly store: ResourceStore,
  ) {
    super();
  }

  protected async open(url: FileUrl): Promise<FileEntry> {
    const { account, route } = this.locateRoute(url);
    const data = await this.call(url, () => this.runner.query(account, route.action, route.params));
    const path = `/${url.segments.join("/")}`;
    if (route.form === "bytes") return { path, ...(await this.bytesOf(url, route, data)), immutable: true, filename: url.segments.at(-1) };
    const text = route.form === "json" ? JSON.stringify(data, null, 2) : linesOf(data, route.listFields ?? []);
    return { path, bytes: Buffer.from(text, "utf8"), mediaType: MEDIA_TYPES[route.form], immutable: false };
  }

  protected override async describe(file: FileUrl): Promise<TextPayload> {
    const { route } = this.locateRoute(file);
    const lines = [
      `url: ${file.url}`,
      `action: ${route.action} ${JSON.stringify(route.params)}`,
      `mediaType: ${route.form === "bytes" ? "detected from the bytes" : MEDIA_TYPES[route.form]}`,
      route.form === "lines" ? "one JSON object per line; select lines with :<start>-<end>" : undefined,
      "metadata only; no action was called",
    ].filter((line): line is string => line !== undefined);
    const text = lines.join("\n");
    return { type: "text", url: file.url, text, size: Buffer.byteLength(text), mediaType: "text/plain" };
  }

  private locateRoute(url: FileUrl) {
    const account = this.runner.accounts.find((candidate) => candidate.selfId === url.authority);
    if (!account) throw new ResourceError("resource_unavailable", `onebot://${url.authority}: not a OneBot account of this runtime`);
    const route = routeOf(url.segments);
    if (!route) throw new ResourceError("resource_not_found", `${url.url}: unknown path; ${ROUTE_HINT}`);
    return { account, route };
  }

  private async call<T>(url: FileUrl, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof OneBotActionError) {
        const missing = (error.retcode !== undefined && NOT_FOUND_RETCODES.has(error.retcode)) || NOT_FOUND_TEXT.test(error.message);
        throw new ResourceError(missing ? "resource_not_found" : "resource_read_failed", `${url.url}: ${error.message}`, { cause: error });
      }
      if (error instanceof ToolError) throw new ResourceError("resource_unavailable", `${url.url}: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /** The `base64` field, else the returned `url` fetched under the asset fetch limits (through the store), with its announced type. */
  private async bytesOf(url: FileUrl, route: OneBotRoute, data: unknown): Promise<{ bytes: Uint8Array; mediaType?: string }> {
    const { base64, url: source } = (data ?? {}) as { base64?: unknown; url?: unknown };
    if (typeof base64 === "string" && base64 !== "") return { bytes: Buffer.from(base64.replace(/^base64:\/\//, ""), "base64") };
    if (typeof source !== "string" || !/^https?:\/\//.test(source)) {
      throw new ResourceError("resource_read_failed", `${url.url}: ${route.action} returned neither base64 nor an http(s) url`);
    }
    const asset = await this.store.registerAsset(source);
    const { bytes, metadata } = await this.store.readAsset(asset.slice("asset://".length));
    return metadata.mediaType ? { bytes, mediaType: metadata.mediaType } : { bytes };
  }
}

/** JSON Lines of an array, or of the listed array fields of an object (each line tagged with its field). */
function linesOf(data: unknown, fields: readonly string[]): string {
  const rows: unknown[] = [];
  if (fields.length === 0) rows.push(...(Array.isArray(data) ? data : []));
  else for (const field of fields) for (const item of ((data as Record<string, unknown> | null)?.[field] as unknown[] | undefined) ?? []) rows.push({ kind: field.replace(/s$/, ""), ...(item as object) });
  return rows.map((row) => JSON.stringify(row)).join("\n") + (rows.length > 0 ? "\n" : "");
}
