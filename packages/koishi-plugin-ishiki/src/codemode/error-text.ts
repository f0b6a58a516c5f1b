/** The error texts a model sees from codemode (spec 05 CT-15, CT-16, CT-18), in one place. */
export const codemodeErrors = {
  thrown: (name: string, message: string, line?: number) =>
    `codemode: ${name}: ${message}${line === undefined ? "" : ` (line ${line})`}`,
  syntax: (message: string, line: number, column: number) =>
    `codemode: SyntaxError: ${message} (line ${line}, column ${column})`,
  programLength: (length: number, max: number) =>
    `codemode: program must be 1 to ${max} characters long; got ${length}`,
  toolFailed: (name: string, message: string) => `codemode: Tool "${name}" failed: ${message}`,
  needsApproval: (name: string) => `codemode: Tool "${name}" requires approval and cannot be called from codemode`,
  unknownTool: (name: string) => `codemode: Tool "${name}" is not callable from codemode`,
  timedOut: (ms: number) => `codemode: timed out after ${ms} ms`,
  memory: (bytes: number) => `codemode: memory limit exceeded (${bytes} bytes)`,
  stackOverflow: () => "codemode: stack overflow",
  tooLarge: (what: "tool input" | "tool output" | "result", limit: string, bytes: number, max: number) =>
    `codemode: ${what} exceeds ${limit} (${bytes} > ${max})`,
  tooDeep: (what: "tool input" | "tool output" | "result", max: number) => `codemode: ${what} nests deeper than ${max} levels`,
  notJson: (path: string) => `codemode: return value is not JSON-serialisable at ${path}`,
  tooManyCalls: (max: number) => `codemode: more than ${max} tool calls`,
  crashed: (reason: string) => `codemode: sandbox crashed (${reason})`,
  pendingCalls: (count: number) =>
    `codemode: Program returned while ${count} tool call(s) were still pending; await every tools.* call`,
  neverSettles: () =>
    "codemode: program is waiting on a promise that nothing can settle; only tools.* calls resolve asynchronously here",
};

/** Console lines as the model sees them: a second text part on success, appended to the error text on failure. */
export function formatConsoleOutput(lines: readonly string[]): string {
  return `Console output:\n${lines.join("\n")}`;
}

export function withConsoleOutput(error: string, lines: readonly string[]): string {
  return lines.length === 0 ? error : `${error}\n\n${formatConsoleOutput(lines)}`;
}
