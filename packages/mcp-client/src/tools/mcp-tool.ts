import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchema, tool } from "koishi-plugin-ishiki";
import type { JSONSchema7, Tool } from "koishi-plugin-ishiki";
import type { ServerConnection } from "../pool/server-connection.js";
import { modelBlocks, type ContentBlock } from "./content.js";

/** The default `outputSchema` (MC-12): the raw MCP content blocks the tool returned. */
const CONTENT_BLOCKS: JSONSchema7 = {
  type: "array",
  description: "MCP content blocks",
  items: {
    type: "object",
    properties: { type: { type: "string", enum: ["text", "image", "audio", "resource", "resource_link"] } },
    required: ["type"],
  },
};

/**
 * A structured result (declared `outputSchema`) is what `execute` returns, for programs; the model still sees
 * the call's content blocks, remembered here until the exit asks for them.
 */
const blocksOf = new WeakMap<object, ContentBlock[]>();

/**
 * One MCP tool as an AI SDK tool (MC-12, MC-13): the server's `inputSchema`; `execute` returns the content
 * blocks, with resource links as `mcp://` URLs and text blobs as text (`modelBlocks`), or the structured
 * content when the tool declares an output schema; `toModelOutput` hands the blocks to the exit as JSON,
 * which extracts their media.
 */
export function createMcpTool(connection: ServerConnection, definition: McpTool, exposed: string): Tool {
  const structured = definition.outputSchema !== undefined;
  return tool({
    description: definition.description ?? definition.title ?? `MCP tool ${definition.name} of server ${connection.name}`,
    inputSchema: jsonSchema(definition.inputSchema as JSONSchema7),
    outputSchema: jsonSchema((definition.outputSchema as JSONSchema7 | undefined) ?? CONTENT_BLOCKS),
    execute: async (input, { abortSignal }) => {
      const result = await connection.callTool(definition.name, exposed, input, abortSignal);
      const content = modelBlocks(connection.prefix, result.content ?? []);
      const value = result.structuredContent;
      if (!structured || value === undefined) return content;
      blocksOf.set(value, content);
      return value;
    },
    toModelOutput: ({ output }) => {
      const blocks = typeof output === "object" && output !== null ? blocksOf.get(output) : undefined;
      return { type: "json", value: (blocks ?? output) as never };
    },
  });
}
