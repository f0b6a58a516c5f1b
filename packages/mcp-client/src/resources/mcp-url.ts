export const MCP_PREFIX = "mcp://";

/** `mcp://<server>/<resource-uri>` (MC-16): the URI goes verbatim after the server's ASCII-safe prefix. */
export function mcpUrl(prefix: string, uri: string): string {
  return `${MCP_PREFIX}${prefix}/${uri}`;
}

/** The server part and the verbatim URI of an `mcp://` URL; either may be empty. */
export function parseMcpUrl(url: string): { server: string; uri: string } | undefined {
  if (!url.toLowerCase().startsWith(MCP_PREFIX)) return undefined;
  const rest = url.slice(MCP_PREFIX.length);
  const slash = rest.indexOf("/");
  return slash < 0 ? { server: rest, uri: "" } : { server: rest.slice(0, slash), uri: rest.slice(slash + 1) };
}
