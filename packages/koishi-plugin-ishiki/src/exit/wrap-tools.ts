import { experimental_getToolCaller, type ToolResultOutput } from "@ai-sdk/provider-utils";
import { experimental_toolCaller, type Tool, type ToolExecutionOptions, type ToolSet } from "ai";
import { ToolError } from "@yesimagent/core";
import { cutErrorText, toolErrorText } from "./error-text.js";
import { exitOutput, type ExitCall } from "./display.js";
import type { ExitContext } from "./exit-context.js";

/** Wrapped tool → the tool as its author wrote it, so a second assembly wraps the original again (no stacking). */
const originals = new WeakMap<object, Tool>();

/**
 * Displays remembered per context by call id: the AI SDK may ask for one call's output more than once, and it
 * must be archived and recorded once. Only the (page-sized) display is kept, never the raw output.
 */
const MEMO_SIZE = 64;
const memos = new WeakMap<ExitContext, Map<string, Promise<ToolResultOutput>>>();

function memoised(context: ExitContext, tool: Tool, call: ExitCall): Promise<ToolResultOutput> {
  let memo = memos.get(context);
  if (!memo) memos.set(context, (memo = new Map()));
  const hit = memo.get(call.toolCallId);
  if (hit) return hit;
  const display = exitOutput(context, tool, call);
  memo.set(call.toolCallId, display);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value as string);
  return display;
}

/**
 * A thrown error's text is cut to the error budget (EX-9). Short errors pass unchanged, so hooks and
 * `tool.failed` still see the original; nested program calls (`caller` set) never pass the exit (EX-1).
 */
function cutErrors(execute: NonNullable<Tool["execute"]>): NonNullable<Tool["execute"]> {
  return async function (this: unknown, input: unknown, options: ToolExecutionOptions<unknown>) {
    try {
      return await execute.call(this, input as never, options as never);
    } catch (error) {
      if ((options as { caller?: unknown } | undefined)?.caller !== undefined) throw error;
      const text = toolErrorText(error);
      const cut = cutErrorText(text);
      if (cut === text) throw error;
      throw new ToolError(cut, { cause: error });
    }
  } as NonNullable<Tool["execute"]>;
}

function exitTool(name: string, given: Tool, context: ExitContext): Tool {
  if (given.type === "provider" && given.isProviderExecuted) return given;
  const tool = originals.get(given) ?? given;
  const wrapped = {
    ...tool,
    ...(tool.execute === undefined ? {} : { execute: cutErrors(tool.execute) }),
    toModelOutput: ({ toolCallId, input, output }: ExitCall) => memoised(context, tool, { toolName: name, toolCallId, input, output }),
  } as unknown as Tool;
  const caller = experimental_getToolCaller(tool);
  // A local caller tool is replaced by what `bind` returns; that tool must pass the exit as well.
  const final =
    caller?.type === "local"
      ? experimental_toolCaller(wrapped, { ...caller, bind: (callable) => exitTool(name, caller.bind(callable), context) })
      : wrapped;
  originals.set(final, tool);
  return final;
}

/**
 * Puts every tool of a runtime's final tool set behind the unified exit (04 EX-1): its model output — direct
 * calls and a program tool's outer return alike — is the exit's display. Call it on each assembled tool set;
 * tools that were already wrapped are wrapped afresh from their original, never twice.
 */
export function wrapToolSet(tools: ToolSet, context: ExitContext): ToolSet {
  const out: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) out[name] = exitTool(name, tool, context);
  return out;
}
