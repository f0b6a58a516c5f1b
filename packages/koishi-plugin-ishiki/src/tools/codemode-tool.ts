import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import { safeValidateTypes } from "@ai-sdk/provider-utils";
import type { JSONValue } from "@ai-sdk/provider";
import { asSchema, experimental_toolCaller, tool, type Tool, type ToolExecutionOptions, type ToolSet } from "ai";
import { ToolError } from "@yesimagent/core";
import { codemodeInputSchema, formatConsoleOutput, type CodemodeInput, type CodemodeSandbox } from "../codemode/index.js";

/** The caller name nested program calls carry in their execution options (spec 05 CT-8). */
export const CODEMODE_CALLER = "codemode";

export interface CodemodeToolOptions {
  readonly sandbox: CodemodeSandbox;
  /** From `codemodeDescription` (CT-4, CT-6). */
  readonly description: string;
  /** Error text for a tool outside the program's catalog (toolsearch: CT-29). */
  readonly describeUnknownTool?: (name: string) => string;
  /**
   * Tools whose program-side input differs from the direct one (`read` takes no `lifetime` in programs, seed
   * 000, EX-22): a nested call is checked against this view's schema, the one its declaration shows, and still
   * runs through the bound direct tool so hooks and events apply.
   */
  readonly programViews?: Readonly<Record<string, Tool>>;
}

// Console lines wait here from `execute` to the display; the exit asks for one call's display once (its memo).
const CONSOLE_MEMO = 64;

function display(output: unknown, lines: readonly string[] | undefined): ToolResultOutput {
  const value = output === undefined ? null : output;
  if (!lines || lines.length === 0) return typeof value === "string" ? { type: "text", value } : { type: "json", value: value as JSONValue };
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return { type: "content", value: [{ type: "text", text }, { type: "text", text: formatConsoleOutput(lines) }] };
}

function needsApproval(candidate: Tool): boolean {
  const flag = (candidate as { needsApproval?: unknown }).needsApproval;
  return flag !== undefined && flag !== false;
}

/**
 * The `codemode` tool (spec 05 CT-1, CT-8): a ToolCallers caller whose bound form runs the program in the
 * sandbox against the tools routed to it. Nested calls go through the callable tools the AI SDK binds (the
 * agent's wrapped tools, so hooks, `tool.*` events and abort apply) with `caller: "codemode"`; they never pass
 * `toModelOutput` or the exit. Failures throw `ToolError` with the exact CT-18 text; the final value is the
 * result, and its display adds the console lines as a second text part (CT-16).
 */
export function createCodemodeTool(options: CodemodeToolOptions): Tool {
  const consoles = new Map<string, readonly string[]>();
  const toModelOutput = ({ toolCallId, output }: { toolCallId: string; output: unknown }): ToolResultOutput => {
    const lines = consoles.get(toolCallId);
    consoles.delete(toolCallId);
    return display(output, lines);
  };
  const unbound = tool<CodemodeInput, unknown, {}>({
    description: options.description,
    inputSchema: codemodeInputSchema,
    execute: () => {
      throw new ToolError("codemode: the tool was not bound to a tool set; route tools to it with ToolCallers");
    },
    toModelOutput,
  });

  const bind = (callable: ToolSet): Tool =>
    tool<CodemodeInput, unknown, {}>({
      description: options.description,
      inputSchema: codemodeInputSchema,
      toModelOutput,
      async execute({ js }, execution) {
        let nested = 0;
        const callTool = async (name: string, input: unknown, signal: AbortSignal): Promise<unknown> => {
          const target = callable[name];
          const schema = asSchema((options.programViews?.[name] ?? target).inputSchema);
          const checked = await safeValidateTypes({ value: input, schema });
          if (!checked.success) throw new ToolError(`invalid input: ${checked.error.message}`);
          nested += 1;
          const nestedOptions = { ...execution, toolCallId: `${execution.toolCallId}:${nested}`, abortSignal: signal, caller: CODEMODE_CALLER };
          return target.execute!(checked.value, nestedOptions as unknown as ToolExecutionOptions<never>);
        };
        const outcome = await options.sandbox.run({
          js,
          tools: Object.entries(callable).map(([name, candidate]) => ({ name, needsApproval: needsApproval(candidate) })),
          callTool,
          ...(execution.abortSignal === undefined ? {} : { signal: execution.abortSignal }),
          ...(options.describeUnknownTool === undefined ? {} : { describeUnknownTool: options.describeUnknownTool }),
        });
        if (!outcome.ok) throw new ToolError(outcome.error);
        if (outcome.console.length > 0) {
          consoles.set(execution.toolCallId, outcome.console);
          if (consoles.size > CONSOLE_MEMO) consoles.delete(consoles.keys().next().value as string);
        }
        return outcome.value;
      },
    });

  return experimental_toolCaller(unbound, { type: "local", bind });
}
