import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, ReadResourceResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "koishi";
import { ToolError } from "koishi-plugin-ishiki";
import type { NamedServer } from "../config/load.js";
import { createTransport } from "./transport.js";

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;
/** `timeout: 0` means unlimited; the SDK's timer takes at most this (about 24.8 days). */
const UNLIMITED_MS = 2_147_483_647;

/**
 * One configured server inside a pool (MC-6 .. MC-9, MC-14): connects, lists its tools, and while the pool is
 * open reconnects with backoff after a failed connect or a closed transport. Its last-known tools stay listed
 * while it is down and fail fast. `onChange` fires whenever the tools or the connection state change.
 */
export class ServerConnection {
  public readonly name: string;
  /** The last tool list the server gave; empty until the first connect. */
  public tools: McpTool[] = [];
  /** Attempts since the last successful connect; 0 while connected. */
  private attempt = 0;
  private client: Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  public constructor(
    private readonly server: NamedServer,
    private readonly logger: Logger,
    private readonly onChange: () => void,
  ) {
    this.name = server.name;
  }

  public get connected(): boolean {
    return this.client !== undefined;
  }

  /** The server's instructions when connected and its config includes them (MC-15). */
  public get instructions(): string | undefined {
    if (!this.server.config.instructions) return undefined;
    const text = this.client?.getInstructions()?.trim();
    return text === "" ? undefined : text;
  }

  /** Starts the first attempt; resolves when it connected or failed (never rejects). */
  public start(): Promise<void> {
    return this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { config } = this.server;
    const client = new Client({ name: "ishiki-mcp-client", version: "0.1.0" });
    const transport = createTransport(this.server, (line) => this.logger.debug('MCP server "%s" stderr: %s', this.name, line));
    let up = false;
    client.onclose = () => {
      if (!up) return;
      up = false;
      if (this.client === client) this.client = undefined;
      if (this.closed) return;
      this.logger.info('MCP server "%s" connection closed; reconnecting', this.name);
      this.onChange();
      this.scheduleRetry();
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.relist(client));
    try {
      await client.connect(transport, { timeout: config.connectTimeoutMs });
      const tools = await this.listTools(client);
      if (this.closed) {
        await client.close();
        return;
      }
      up = true;
      this.client = client;
      this.tools = tools;
      this.logger.info('MCP server "%s" connected%s: %d tool(s)', this.name, this.attempt > 0 ? ` after ${this.attempt} attempt(s)` : "", tools.length);
      this.attempt = 0;
      this.onChange();
    } catch (error) {
      await client.close().catch(() => undefined);
      if (this.closed) return;
      this.logger.warn('MCP server "%s" connect failed: %s', this.name, (error as Error).message);
      this.scheduleRetry();
    }
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

  private async listTools(client: Client): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.server.config.connectTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  private async relist(client: Client): Promise<void> {
    try {
      const tools = await this.listTools(client);
      if (this.client !== client) return;
      this.tools = tools;
      this.logger.debug('MCP server "%s" relisted: %d tool(s)', this.name, tools.length);
      this.onChange();
    } catch (error) {
      this.logger.warn('MCP server "%s" relist failed: %s', this.name, (error as Error).message);
    }
  }

  /** The client, or the fail-fast error of MC-8. */
  private live(): Client {
    if (this.client) return this.client;
    throw new ToolError(`MCP server "${this.name}" is not connected (reconnecting, attempt ${Math.max(this.attempt, 1)})`);
  }

  private requestOptions(signal: AbortSignal | undefined): RequestOptions {
    const { timeout } = this.server.config;
    return { ...(signal ? { signal } : {}), ...(timeout === undefined ? {} : { timeout: timeout === 0 ? UNLIMITED_MS : timeout }) };
  }

  /**
   * Calls a tool (MC-13). `exposed` is the model-facing name used in messages. `isError` results and the
   * per-server timeout become `ToolError`s; `signal` cancels the request on the server too.
   */
  public async callTool(tool: string, exposed: string, input: unknown, signal: AbortSignal | undefined): Promise<CallToolResult> {
    const client = this.live();
    const started = Date.now();
    try {
      const result = (await client.callTool({ name: tool, arguments: (input ?? {}) as Record<string, unknown> }, undefined, this.requestOptions(signal))) as CallToolResult;
      if (result.isError) throw new ToolError(errorText(result) || `MCP tool "${exposed}" failed`);
      this.logger.debug('MCP call %s: %d ms', exposed, Date.now() - started);
      return result;
    } catch (error) {
      this.logger.debug('MCP call %s: %d ms, error: %s', exposed, Date.now() - started, (error as Error).message);
      // The SDK reports a cancelled request with the timeout's code: the signal tells them apart.
      if (signal?.aborted) throw signal.reason ?? error;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        const ms = this.server.config.timeout ?? DEFAULT_REQUEST_TIMEOUT_MSEC;
        throw new ToolError(`MCP tool "${exposed}" timed out after ${ms} ms`, { cause: error });
      }
      throw error;
    }
  }

  /** `resources/read` with the URI verbatim (MC-16); undefined while disconnected. */
  public readResource(uri: string, signal: AbortSignal | undefined): Promise<ReadResourceResult> | undefined {
    return this.client?.readResource({ uri }, signal ? { signal } : {});
  }

  /** Stops retrying and closes the transport; a stdio child ends. */
  public async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }
}

function errorText(result: CallToolResult): string {
  return result.content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n");
}
