import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResourceSchema, ResourceTemplateSchema, ResultSchema, ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Resource, ResourceTemplate, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";

/** What one listing kept, and one line per item it dropped (`<name>: <reason>`). */
export interface Listed<T> {
  items: T[];
  dropped: string[];
}

/** Pages the server's answers stop after, so a server that always returns a cursor cannot loop forever. */
const MAX_PAGES = 100;

interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

function label(raw: unknown, index: number): string {
  const name = typeof raw === "object" && raw !== null ? (raw as { name?: unknown; uri?: unknown }).name ?? (raw as { uri?: unknown }).uri : undefined;
  return typeof name === "string" ? `"${name}"` : `#${index + 1}`;
}

/**
 * Every page of one list method, each item checked on its own: the SDK's `listTools` validates the whole page,
 * so one tool whose `inputSchema` lacks `"type": "object"` used to lose the server. Here only that item drops.
 */
async function listLeniently<T>(client: Client, method: string, key: string, schema: Schema<T>, timeout: number): Promise<Listed<T>> {
  const items: T[] = [];
  const dropped: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = cursor === undefined ? {} : { cursor };
    const result = (await client.request({ method, params } as never, ResultSchema, { timeout })) as Record<string, unknown>;
    const raw = Array.isArray(result[key]) ? (result[key] as unknown[]) : [];
    raw.forEach((entry, index) => {
      const parsed = schema.safeParse(entry);
      if (parsed.success) return void items.push(parsed.data);
      const issue = parsed.error.issues[0];
      dropped.push(`${label(entry, index)}: ${issue.path.map(String).join(".") || "(item)"} ${issue.message}`);
    });
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
    if (cursor === undefined) break;
  }
  return { items, dropped };
}

/**
 * The server's tools (MC-14 relists too). The SDK client is not taught them (its cache is private to its own
 * strict `listTools`): task support is read from the kept tools by the caller, and structured output passes
 * through as the server sent it.
 */
export function listTools(client: Client, timeout: number): Promise<Listed<McpTool>> {
  return listLeniently(client, "tools/list", "tools", ToolSchema as Schema<McpTool>, timeout);
}

/** The server's resources and resource templates; empty when it has no `resources` capability. */
export async function listResources(client: Client, timeout: number): Promise<{ resources: Listed<Resource>; templates: Listed<ResourceTemplate> }> {
  const none = { items: [], dropped: [] };
  if (!client.getServerCapabilities()?.resources) return { resources: none, templates: none };
  const resources = await listLeniently(client, "resources/list", "resources", ResourceSchema as Schema<Resource>, timeout);
  // Templates are optional even for servers with resources; one that rejects the method simply has none.
  const templates = await listLeniently(client, "resources/templates/list", "resourceTemplates", ResourceTemplateSchema as Schema<ResourceTemplate>, timeout).catch(() => none);
  return { resources, templates };
}
