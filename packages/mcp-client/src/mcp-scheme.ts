import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { ResourceError } from "koishi-plugin-ishiki";
import type { ResourcePayload, SchemeHandler } from "koishi-plugin-ishiki";
import type { McpPool } from "./pool/mcp-pool.js";

const PREFIX = "mcp://";

/** MCP's "resource not found" error code (not in the SDK's enum). */
const RESOURCE_NOT_FOUND = -32002;

function notFound(url: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof McpError && error.code === RESOURCE_NOT_FOUND) throw new ResourceError("resource_not_found", `${url}: ${error.message}`, { cause: error });
    throw error;
  };
}

/**
 * `mcp://<server>/<resource-uri>` (MC-16): an opaque scheme, not a FileScheme. The tail after `<server>/` goes
 * verbatim to the server's `resources/read`; the first content item is the payload. Dynamic: `immutable: false`.
 */
export class McpScheme implements SchemeHandler {
  public readonly scheme = "mcp";

  public constructor(private readonly pool: McpPool) {}

  public async resolve(url: string, options?: { signal?: AbortSignal }): Promise<ResourcePayload> {
    const rest = url.slice(PREFIX.length);
    const slash = rest.indexOf("/");
    const server = slash < 0 ? rest : rest.slice(0, slash);
    const uri = slash < 0 ? "" : rest.slice(slash + 1);
    if (!url.toLowerCase().startsWith(PREFIX) || server === "" || uri === "") {
      throw new ResourceError("invalid_resource_uri", `${url}: expected mcp://<server>/<resource-uri>`);
    }
    // Like the first assembly, the first read waits for the handshakes.
    await this.pool.ready;
    const connection = this.pool.connection(server);
    if (!connection) throw new ResourceError("resource_unavailable", `${url}: unknown MCP server "${server}"`);
    const reading = connection.readResource(uri, options?.signal);
    if (!reading) throw new ResourceError("resource_unavailable", `${url}: MCP server "${server}" is not connected`);
    const [item] = (await reading.catch(notFound(url))).contents;
    if (!item) throw new ResourceError("resource_not_found", `${url}: the server returned no content`);
    if ("blob" in item && typeof item.blob === "string") {
      const bytes = new Uint8Array(Buffer.from(item.blob, "base64"));
      return { type: "file", url, bytes, mediaType: item.mimeType ?? "application/octet-stream", size: bytes.byteLength, immutable: false };
    }
    const text = (item as { text: string }).text;
    return { type: "text", url, text, size: Buffer.byteLength(text, "utf8"), mediaType: item.mimeType ?? "text/plain" };
  }
}
