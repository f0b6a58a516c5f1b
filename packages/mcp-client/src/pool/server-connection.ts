import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, McpError, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, ReadResourceResult, Resource, ResourceTemplate, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "koishi";
import { ToolError } from "koishi-plugin-ishiki";
import type { NamedServer } from "../config/load.js";
import { isRemoteServer } from "../config/server-config.js";
import { serverPrefix } from "../tools/names.js";
import { describeError, errorMessage, isConnectionLost } from "./errors.js";
import { listResources, listTools, type Listed } from "./listing.js";
import { callToolOnce } from "./tool-call.js";
import { createTransport } from "./transport.js";

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;
/** `timeout: 0` means unlimited; the SDK's timer takes at most this (about 24.8 days). */
const UNLIMITED_MS = 2_147_483_647;
/** The child's last stderr lines kept for the log line of a failed connect or a closed connection. */
const STDERR_TAIL = 5;

export type ConnectionState = "connecting" | "connected" | "reconnecting" | "closed";

/**
 * One configured server inside a pool (MC-6 .. MC-9, MC-14): connects, lists its tools and resources, and while
 * the pool is open reconnects with backoff after a failed connect or a lost connection. A remote transport's
 * error that means the connection is gone (`isConnectionLost`) closes the client at once, which fails every
 * request pending on it; the SDK would otherwise leave them to their timeouts. The last-known tools stay listed
 * while the server is down and fail fast. `onChange` fires whenever tools, resources or the state change.
 */
export class ServerConnection {
  public readonly name: string;
  /** The ASCII-safe prefix of its tool names and `mcp://` authority. */
  public readonly prefix: string;
  /** The last tool list the server gave; empty until the first connect. */
  public tools: McpTool[] = [];
  public resources: Resource[] = [];
  public templates: ResourceTemplate[] = [];
  /** Settles when the first attempt connected or failed (never rejects). */
  public readonly firstAttempt: Promise<void>;
  /** Attempts since the last successful connect; 0 while connected. */
  private attempt = 0;
  private client: Client | undefined;
  /** The client of the attempt in flight: closing the pool closes it too, ending a stdio child mid-handshake. */
  private pending: Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** Why the last connection ended, for the errors of calls it was carrying and the log. */
  private lostReason: string | undefined;

  public constructor(
    private readonly server: NamedServer,
    private readonly logger: Logger,
    private readonly onChange: () => void,
  ) {
    this.name = server.name;
    this.prefix = serverPrefix(server.name);
    this.firstAttempt = this.connect();
  }

  public get state(): ConnectionState {
    if (this.closed) return "closed";
    if (this.client) return "connected";
    return this.attempt === 0 ? "connecting" : "reconnecting";
  }

  /** The server's instructions when connected and its config includes them (MC-15). */
  public get instructions(): string | undefined {
    if (!this.server.config.instructions) return undefined;
    const text = this.client?.getInstructions()?.trim();
    return text === "" ? undefined : text;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { config } = this.server;
    const client = new Client({ name: "ishiki-mcp-client", version: "0.1.0" });
    const stderr: string[] = [];
    const transport = createTransport(this.server, (line) => {
      // A closing child may still write after the pool (and perhaps the app) is gone.
      if (this.closed) return;
      this.logger.debug('MCP server "%s" stderr: %s', this.name, line);
      stderr.push(line);
      if (stderr.length > STDERR_TAIL) stderr.shift();
    });
    const why = (error: unknown) => `${describeError(error)}${stderr.length > 0 ? `; stderr: ${stderr.join(" | ")}` : ""}`;
    // Set before `connect`, so the SDK chains it: transport errors only, not protocol ones.
    transport.onerror = (error) => {
      if (this.closed) return;
      if (isRemoteServer(config) && isConnectionLost(error)) return this.lose(client, error);
      this.logger.debug('MCP server "%s" transport error: %s', this.name, describeError(error));
    };
    client.onerror = (error) => {
      if (!this.closed) this.logger.debug('MCP server "%s": %s', this.name, describeError(error));
    };
    let up = false;
    client.onclose = () => {
      if (!up) return;
      up = false;
      if (this.client === client) this.client = undefined;
      if (this.closed) return;
      if (stderr.length > 0) this.lostReason = why(this.lostReason ?? "closed");
      this.logger.info('MCP server "%s" connection closed; reconnecting%s', this.name, this.lostReason === undefined ? "" : ` (${this.lostReason})`);
      this.onChange();
      this.scheduleRetry();
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.relist(client, "tools"));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void this.relist(client, "resources"));
    this.pending = client;
    try {
      await client.connect(transport, { timeout: config.connectTimeoutMs });
      const tools = await this.listTools(client);
      const resources = await this.listResources(client);
      if (this.closed) {
        await client.close();
        return;
      }
      up = true;
      this.client = client;
      this.lostReason = undefined;
      this.tools = tools;
      ({ resources: this.resources, templates: this.templates } = resources);
      this.logger.info('MCP server "%s" connected%s: %d tool(s)', this.name, this.attempt > 0 ? ` after ${this.attempt} attempt(s)` : "", tools.length);
      this.attempt = 0;
      this.onChange();
    } catch (error) {
      await client.close().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn('MCP server "%s" connect failed: %s', this.name, why(error));
      this.scheduleRetry();
    } finally {
      if (this.pending === client) this.pending = undefined;
    }
  }

  /** A remote transport reported the connection gone: close it, so its pending requests fail now. */
  private lose(client: Client, error: unknown): void {
    if (this.client !== client && this.pending !== client) return;
    this.lostReason = describeError(error);
    void client.close();
  }

  private scheduleRetry(): void {
    this.attempt += 1;
    const delay = Math.min(FIRST_RETRY_MS * 2 ** (this.attempt - 1), MAX_RETRY_MS);
    this.logger.info('MCP server "%s" reconnect attempt %d in %d ms', this.name, this.attempt, delay);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, delay);
    this.retry.unref();
  }

  private report(what: string, listed: Listed<unknown>): void {
    if (listed.dropped.length === 0) return;
    this.logger.warn('MCP server "%s": %d %s skipped: %s', this.name, listed.dropped.length, what, listed.dropped.join("; "));
  }

  /** The server's tools; those that require tasks are kept only when the server can run tool tasks. */
  private async listTools(client: Client): Promise<McpTool[]> {
    const listed = await listTools(client, this.server.config.connectTimeoutMs);
    const tasks = client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
    const items = listed.items.filter((tool) => {
      if (tasks || tool.execution?.taskSupport !== "required") return true;
      listed.dropped.push(`"${tool.name}": requires task-based execution, which the server does not offer`);
      return false;
    });
    this.report("tool(s)", listed);
    return items;
  }

  /** A failed resource listing costs the resources only, never the connection. */
  private async listResources(client: Client): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }> {
    try {
      const { resources, templates } = await listResources(client, this.server.config.connectTimeoutMs);
      this.report("resource(s)", resources);
      this.report("resource template(s)", templates);
      return { resources: resources.items, templates: templates.items };
    } catch (error) {
      this.logger.warn('MCP server "%s" resource listing failed: %s', this.name, describeError(error));
      return { resources: [], templates: [] };
    }
  }

  private async relist(client: Client, what: "tools" | "resources"): Promise<void> {
    try {
      if (what === "tools") {
        const tools = await this.listTools(client);
        if (this.client !== client) return;
        this.tools = tools;
      } else {
        const listed = await this.listResources(client);
        if (this.client !== client) return;
        ({ resources: this.resources, templates: this.templates } = listed);
      }
      this.logger.debug('MCP server "%s" relisted %s: %d tool(s), %d resource(s)', this.name, what, this.tools.length, this.resources.length);
      this.onChange();
    } catch (error) {
      this.logger.warn('MCP server "%s" relist failed: %s', this.name, describeError(error));
    }
  }

  private notConnected(): string {
    return `MCP server "${this.name}" is not connected (reconnecting, attempt ${Math.max(this.attempt, 1)})`;
  }

  private requestOptions(signal: AbortSignal | undefined): RequestOptions {
    const { timeout } = this.server.config;
    return { ...(signal ? { signal } : {}), ...(timeout === undefined ? {} : { timeout: timeout === 0 ? UNLIMITED_MS : timeout }) };
  }

  /**
   * Calls a tool (MC-13). `exposed` is the model-facing name used in messages. `isError` results, the
   * per-server timeout, a connection lost mid-call and every other failure become `ToolError`s naming the
   * tool or the server; `signal` cancels the request on the server too.
   */
  public async callTool(tool: string, exposed: string, input: unknown, signal: AbortSignal | undefined): Promise<CallToolResult> {
    const client = this.client;
    if (!client) throw new ToolError(this.notConnected());
    const started = Date.now();
    let progress = 0;
    try {
      const task = this.tools.find((definition) => definition.name === tool)?.execution?.taskSupport === "required";
      const result = await callToolOnce(client, tool, input, task, this.requestOptions(signal), () => void (progress += 1));
      if (result.isError) throw new ToolError(errorText(result) || `MCP tool "${exposed}" failed`);
      this.logger.debug("MCP call %s: %d ms%s", exposed, Date.now() - started, progress > 0 ? `, ${progress} progress update(s)` : "");
      return result;
    } catch (error) {
      this.logger.debug("MCP call %s: %d ms, error: %s", exposed, Date.now() - started, describeError(error));
      // The SDK reports a cancelled request with the timeout's code: the signal tells them apart.
      if (signal?.aborted) throw signal.reason ?? error;
      if (error instanceof ToolError) throw error;
      if (this.client !== client) {
        throw new ToolError(`MCP server "${this.name}" connection lost during the call (${this.lostReason ?? "closed"}); reconnecting, attempt ${Math.max(this.attempt, 1)}`, { cause: error });
      }
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        const ms = this.server.config.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC;
        throw new ToolError(`MCP tool "${exposed}" timed out after ${ms} ms${progress > 0 ? ` without progress` : ""}`, { cause: error });
      }
      throw new ToolError(`MCP tool "${exposed}" failed: ${errorMessage(error)}`, { cause: error });
    }
  }

  /** `resources/read` with the URI verbatim (MC-16); undefined while disconnected. */
  public readResource(uri: string, signal: AbortSignal | undefined): Promise<ReadResourceResult> | undefined {
    return this.client?.readResource({ uri }, this.requestOptions(signal));
  }

  /** Stops retrying and closes the transport, also one still connecting: a stdio child ends. */
  public async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const clients = [this.client, this.pending];
    this.client = undefined;
    this.pending = undefined;
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)));
  }
}

function errorText(result: CallToolResult): string {
  return result.content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n");
}
