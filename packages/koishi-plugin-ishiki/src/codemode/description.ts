import { toolDeclarations, type CodemodeToolSignatureSource } from "./declaration.js";
import type { CodemodeLimits } from "./limits.js";

export interface CodemodeDescriptionOptions {
  /** Program-callable tools in assembly order; ignored when `catalog` is `"messages"`. */
  readonly tools: readonly CodemodeToolSignatureSource[];
  readonly limits: CodemodeLimits;
  /**
   * `"inline"` (no toolsearch) lists the declarations in the description (CT-4); `"messages"` (toolsearch on)
   * points to the catalog messages instead, so the description stays constant (CT-6).
   */
  readonly catalog?: "inline" | "messages";
}

const MiB = 1024 * 1024;

function bytes(count: number): string {
  if (count % MiB === 0) return `${count / MiB} MiB`;
  if (count % 1024 === 0) return `${count / 1024} KiB`;
  return `${count} bytes`;
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The `codemode` tool's description (spec 05 CT-4, CT-6); a pure function of the tools and limits. */
export function codemodeDescription(options: CodemodeDescriptionOptions): string {
  const { limits } = options;
  const lines = [
    "Run a JavaScript program (TypeScript annotations are allowed and stripped) in an isolated sandbox.",
    "",
    "- The program is the body of an async function: use top-level `await` and `return`.",
    '- Call tools as `await tools.<name>(input)` or `await tools["<name>"](input)`; run independent calls in parallel with `Promise.all`. Await every call before returning.',
    "- A tool error is thrown as an Error you can catch; an uncaught error ends the program and you see its message.",
    "- Each call is an independent program: nothing survives between calls, so return every value you need later.",
    "- Only the final return value reaches you, as JSON; intermediate data stays inside the program.",
    "- To show media to yourself, list it in a top-level `attachments` array of the return value (MCP image or audio items, `read` file results, resources, or resource URLs); media anywhere else stays plain JSON.",
    "- A tool that wants base64 gets `data` from a prior `tools.read` result; a tool that accepts resource URLs takes the URL itself.",
    "- `console.log/info/warn/error/debug` output is shown after the result.",
    "- There is no network, `fetch`, `require`, module loading, timers, file system or `process`: only ECMAScript built-ins, `tools` and `console`.",
    `- Limits: ${duration(limits.timeoutMs)} per program, ${bytes(limits.memoryLimitBytes)} memory, ${limits.maxToolCalls} tool calls, ${bytes(limits.maxToolInputBytes)} per tool input, ${bytes(limits.maxToolOutputBytes)} per tool output, ${bytes(limits.maxResultBytes)} result, ${bytes(limits.maxConsoleBytes)} console output.`,
    "",
  ];
  if (options.catalog === "messages") {
    lines.push(
      'The tools callable here are declared in the latest "Code mode capability update" messages; use search to discover more.',
    );
  } else {
    lines.push("Tools callable from programs:", "```ts", toolDeclarations(options.tools), "```");
  }
  return lines.join("\n");
}
