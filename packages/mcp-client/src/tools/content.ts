import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mcpUrl } from "../resources/mcp-url.js";
import { blobText } from "../resources/text-blob.js";

export type ContentBlock = CallToolResult["content"][number];

/**
 * A tool result's blocks as the model and programs get them:
 * - a `resource_link` carries `mcp://<server>/<uri>` instead of the server's own URI, so `read` opens it;
 * - an embedded resource whose blob is text (`text/plain`, JSON, …) becomes a text resource, which the exit
 *   shows inline instead of archiving it as an attachment the model would have to `read` again.
 */
export function modelBlocks(prefix: string, blocks: readonly ContentBlock[]): ContentBlock[] {
  return blocks.map((block) => {
    if (block.type === "resource_link") return { ...block, uri: mcpUrl(prefix, block.uri) };
    if (block.type === "resource" && "blob" in block.resource) {
      const { blob, ...rest } = block.resource;
      const text = blobText(blob, rest.mimeType);
      if (text !== undefined) return { ...block, resource: { ...rest, text } };
    }
    return block;
  });
}
