import type { Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { mcpUrl } from "./mcp-url.js";

/** What the catalog needs of a connected server. */
export interface ResourceOwner {
  readonly prefix: string;
  readonly resources: readonly Resource[];
  readonly templates: readonly ResourceTemplate[];
}

/** Resources and templates named per server in the instructions; `mcp://<server>/` lists the rest. */
export const LISTED_PER_SERVER = 10;

function line(url: string, item: { name: string; title?: string; description?: string; mimeType?: string }): string {
  const title = item.title ?? item.name;
  const description = item.description?.split("\n")[0].trim();
  return `- ${url} — ${title}${description ? `: ${description}` : ""}${item.mimeType ? ` (${item.mimeType})` : ""}`;
}

/** One server's resources, then its templates (URI templates, RFC 6570), each as a line with its `mcp://` URL. */
export function resourceLines(owner: ResourceOwner, limit = Infinity): string[] {
  const lines = owner.resources.slice(0, limit).map((resource) => line(mcpUrl(owner.prefix, resource.uri), resource));
  const room = Math.max(0, limit - lines.length);
  lines.push(...owner.templates.slice(0, room).map((template) => line(`${mcpUrl(owner.prefix, template.uriTemplate)} (template)`, template)));
  return lines;
}

/**
 * The instructions' resource section: how to read `mcp://` URLs, and per server its first resources and
 * templates with the count of the rest. Undefined when no connected server has any.
 */
export function resourceInstructions(owners: readonly ResourceOwner[]): string | undefined {
  const parts: string[] = [];
  for (const owner of owners) {
    const total = owner.resources.length + owner.templates.length;
    if (total === 0) continue;
    const lines = resourceLines(owner, LISTED_PER_SERVER);
    const more = total - lines.length;
    const counts = `${owner.resources.length} resource(s), ${owner.templates.length} template(s)`;
    parts.push([`Server ${owner.prefix} (${counts}${more > 0 ? `; ${more} more: read mcp://${owner.prefix}/` : ""}):`, ...lines].join("\n"));
  }
  if (parts.length === 0) return undefined;
  return [
    "### MCP resources",
    'read({ url: "mcp://<server>/<resource-uri>" }) opens a resource of an MCP server; mcp://<server>/ lists all its resources and templates. For a template, replace each {placeholder} with a value.',
    ...parts,
  ].join("\n");
}

/** The text `read("mcp://<server>/")` returns. */
export function resourceListing(owner: ResourceOwner): string {
  const lines = resourceLines(owner);
  if (lines.length === 0) return `MCP server ${owner.prefix} has no resources.`;
  return [`MCP server ${owner.prefix}: ${owner.resources.length} resource(s), ${owner.templates.length} template(s)`, ...lines].join("\n");
}
