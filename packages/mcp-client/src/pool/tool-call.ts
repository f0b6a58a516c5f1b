import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * One `tools/call` on a connected client. Progress is always requested (`onprogress` makes the SDK send a
 * progress token) and every progress notification restarts the call's timeout, so a long operation that keeps
 * reporting is not cut off. A tool whose `execution.taskSupport` is `"required"` runs as an MCP task: created,
 * polled with `tasks/get` and fetched with `tasks/result` by the SDK's task stream; aborting cancels the task.
 */
export async function callToolOnce(client: Client, name: string, input: unknown, task: boolean, options: RequestOptions, onProgress: () => void): Promise<CallToolResult> {
  const params = { name, arguments: (input ?? {}) as Record<string, unknown> };
  const requestOptions: RequestOptions = { ...options, onprogress: onProgress, resetTimeoutOnProgress: true };
  if (!task) return (await client.callTool(params, undefined, requestOptions)) as CallToolResult;
  let taskId: string | undefined;
  const cancel = () => {
    if (taskId !== undefined) void client.experimental.tasks.cancelTask(taskId).catch(() => undefined);
  };
  options.signal?.addEventListener("abort", cancel, { once: true });
  try {
    for await (const message of client.experimental.tasks.callToolStream(params, CallToolResultSchema, { ...requestOptions, task: {} })) {
      if (message.type === "taskCreated") taskId = message.task.taskId;
      else if (message.type === "result") return message.result as CallToolResult;
      else if (message.type === "error") throw message.error;
    }
  } finally {
    options.signal?.removeEventListener("abort", cancel);
  }
  throw new Error(`the task of tool "${name}" ended without a result`);
}
