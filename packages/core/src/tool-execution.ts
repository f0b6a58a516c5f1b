import { experimental_getToolCaller, type Tool, type ToolExecutionOptions, type ToolSet } from "@ai-sdk/provider-utils";
import { experimental_toolCaller } from "ai";
import { AgentRuntimeError } from "./errors.js";
import { abortError, isAbortError, toErrorInfo, toolErrorText, ToolErrorText } from "./error-info.js";
import type { AgentEvent } from "./event.js";
import type { AgentHooks } from "./hooks.js";
import type { ToolCallInfo, ToolDecision, ToolResultInfo } from "./plugin.js";

/** What the tool calls of one step run against. */
export interface ToolRunContext {
  readonly turnId: string;
  readonly signal: AbortSignal;
  readonly hooks: AgentHooks;
  emit(event: AgentEvent): Promise<void>;
}

/**
 * Wraps every agent-executed tool so that each call, direct or nested through a caller tool (AG-17), runs the
 * plugins' tool hooks, emits `tool.*` events and races the turn's abort signal (AG-43 .. AG-47). Validation,
 * `toModelOutput` and result messages stay with the AI SDK. Provider-executed tools pass through untouched.
 */
export function wrapTools(tools: ToolSet, context: ToolRunContext): ToolSet {
  const wrapped: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) wrapped[name] = wrapTool(name, tool, context);
  return wrapped;
}

function wrapTool(name: string, tool: Tool, context: ToolRunContext): Tool {
  if (tool.type === "provider" && tool.isProviderExecuted) return tool;
  const wrapped = { ...tool, execute: (input: unknown, options: ToolExecutionOptions<unknown>) => runToolCall(name, tool, input, options, context) } as Tool;
  const caller = experimental_getToolCaller(tool);
  if (caller?.type !== "local") return wrapped;
  // The SDK replaces a local caller tool by what `bind` returns; wrap that as well, or the caller's own
  // call would skip the hooks and events.
  return experimental_toolCaller(wrapped, { ...caller, bind: (callable) => wrapTool(name, caller.bind(callable), context) });
}

async function runToolCall(name: string, tool: Tool, input: unknown, options: ToolExecutionOptions<unknown> | undefined, context: ToolRunContext): Promise<unknown> {
  const { turnId, hooks, signal } = context;
  const toolCallId = options?.toolCallId;
  const ids = toolCallId === undefined ? { turnId, toolName: name } : { turnId, toolName: name, toolCallId };
  const fail = async (args: unknown, error: unknown): Promise<never> => {
    await context.emit({ type: "tool.failed", ...ids, args, error: toErrorInfo(error) });
    throw new ToolErrorText(toolErrorText(error));
  };

  const execute = tool.execute;
  if (execute === undefined) return fail(input, new AgentRuntimeError(`Tool "${name}" has no execute function`));

  const call: ToolCallInfo = { ...(toolCallId === undefined ? {} : { toolCallId }), toolName: name, args: input };
  let decision: ToolDecision;
  try {
    decision = await hooks.pipe("beforeToolCall", { type: "allow" }, call);
  } catch (error) {
    return fail(input, error);
  }
  if (decision.type === "block") {
    await context.emit({ type: "tool.blocked", ...ids, reason: decision.reason });
    return { blocked: true, reason: decision.reason };
  }

  const args = decision.type === "replace" ? decision.args : input;
  await context.emit({ type: "tool.start", ...ids, args });
  let outcome: ToolResultInfo;
  try {
    const result = await raceAbort(settle(execute.call(tool, args, options as ToolExecutionOptions<never>)), signal);
    outcome = { ...call, args, result, isError: false };
  } catch (error) {
    // An aborted turn is not a tool failure: it keeps travelling as an abort and the turn ends aborted.
    if (signal.aborted) throw isAbortError(error) ? error : abortError();
    outcome = { ...call, args, result: error, isError: true };
  }

  let final: ToolResultInfo;
  try {
    final = await hooks.pipe("afterToolCall", outcome);
  } catch (error) {
    final = { ...outcome, result: error, isError: true };
  }
  if (outcome.isError) await context.emit({ type: "tool.failed", ...ids, args, error: toErrorInfo(outcome.result) });
  else await context.emit({ type: "tool.done", ...ids, result: final.result });
  if (final.isError) throw new ToolErrorText(toolErrorText(final.result));
  return final.result;
}

/** A streaming `execute` (an async iterable) counts by its last value, as in the AI SDK. */
async function settle(value: unknown): Promise<unknown> {
  const resolved = await value;
  if (typeof resolved !== "object" || resolved === null || !(Symbol.asyncIterator in resolved)) return resolved;
  let last: unknown;
  for await (const item of resolved as AsyncIterable<unknown>) last = item;
  return last;
}

function raceAbort<T>(operation: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    operation.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
