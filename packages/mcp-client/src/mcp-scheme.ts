import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { ResourceError } from "koishi-plugin-ishiki";
import type { ResourcePayload, SchemeHandler } from "koishi-plugin-ishiki";
import type { McpPool } from "./pool/mcp-pool.js";
import { errorMessage } from "./pool/errors.js";
import { resourceListing } from "./resources/catalog.js";
import { parseMcpUrl } from "./resources/mcp-url.js";
import { blobText } from "./resources/text-blob.js";

/** MCP's "resource not found" error code (not in the SDK's enum). */
const RESOURCE_NOT_FOUND = -32002;

function notFound(url: string, signal: AbortSignal | undefined): (error: unknown) => never {
  return (error) => {
    if (signal?.aborted) throw error;
    if (error instanceof McpError && error.code === RESOURCE_NOT_FOUND) throw new ResourceError("resource_not_found", `${url}: ${errorMessage(error)}`, { cause: error });
    throw new ResourceError("resource_read_failed", `${url}: ${errorMessage(error)}`, { cause: error });
  };
}

function text(url: string, value: string, mediaType: string): ResourcePayload {
  return { type: "text", url, text: value, size: Buffer.byteLength(value, "utf8"), mediaType };
}

/**
 * `mcp://<server>/<resource-uri>` (MC-16): an opaque scheme, not a FileScheme. `<server>` is the server's name
 * or its ASCII-safe prefix; the tail after `<server>/` goes verbatim to the server's `resources/read`, and
 * `mcp://<server>/` alone lists the server's resources and templates. The first content item is the payload;
 * a blob of a text type is text. Dynamic: `immutable: false`.
 */
export class McpScheme implements SchemeHandler {
  public readonly scheme = "mcp";

  public constructor(private readonly pool: McpPool) {}

  public async resolve(url: string, options?: { signal?: AbortSignal }): Promise<ResourcePayload> {
    const parsed = parseMcpUrl(url);
    if (!parsed || parsed.server === "" || (parsed.uri === "" && !url.endsWith("/"))) {
      throw new ResourceError("invalid_resource_uri", `${url}: expected mcp://<server>/<resource-uri>`);
    }
    // Like the first assembly, the first read waits (briefly) for the handshakes.
    await this.pool.ready;
    const connection = this.pool.connection(parsed.server);
    if (!connection) throw new ResourceError("resource_unavailable", `${url}: unknown MCP server "${parsed.server}"`);
    if (connection.state !== "connected") throw new ResourceError("resource_unavailable", `${url}: MCP server "${connection.name}" is not connected`);
    if (parsed.uri === "") return text(url, resourceListing(connection), "text/plain");
    const reading = connection.readResource(parsed.uri, options?.signal);
    if (!reading) throw new ResourceError("resource_unavailable", `${url}: MCP server "${connection.name}" is not connected`);
    const [item] = (await reading.catch(notFound(url, options?.signal))).contents;
    if (!item) throw new ResourceError("resource_not_found", `${url}: the server returned no content`);
    if ("blob" in item && typeof item.blob === "string") {
      const decoded = blobText(item.blob, item.mimeType);
      if (decoded !== undefined) return text(url, decoded, item.mimeType!);
      const bytes = new Uint8Array(Buffer.from(item.blob, "base64"));
      return { type: "file", url, bytes, mediaType: item.mimeType ?? "application/octet-stream", size: bytes.byteLength, immutable: false };
    }
    return text(url, (item as { text: string }).text, item.mimeType ?? "text/plain");
  }
}
