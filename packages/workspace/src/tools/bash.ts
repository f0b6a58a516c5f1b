import { jsonSchema, tool } from "koishi-plugin-ishiki";
import type { Sandbox } from "../sandbox.js";
import type { WorkspaceSettings } from "../settings.js";
import { bashDisplay, capStream, type BashResult } from "./bash-result.js";

const ABORTED = /bash: execution aborted\n?$/;

/**
 * Runs one command in a fresh shell state over the shared file system (WS-10, WS-11, WS-12). The timeout is
 * combined with the turn's abort signal; a timeout exits 124 and says so, an aborted turn rethrows its reason.
 */
export async function runCommand(sandbox: Sandbox, settings: WorkspaceSettings, command: string, signal?: AbortSignal): Promise<BashResult> {
  const shell = await sandbox.shell();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), settings.timeoutMs);
  let result: BashResult;
  try {
    const done = await shell.exec(command, { signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal });
    result = { stdout: done.stdout, stderr: done.stderr, exitCode: done.exitCode };
  } catch (error) {
    signal?.throwIfAborted();
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    result = { stdout: "", stderr: `bash: ${message}`, exitCode: 1 };
  } finally {
    clearTimeout(timer);
  }
  signal?.throwIfAborted();
  if (timeout.signal.aborted) {
    result = { ...result, exitCode: 124, stderr: `${result.stderr.replace(ABORTED, "")}bash: command timed out after ${settings.timeoutMs} ms` };
  }
  const cap = settings.maxExecutionOutputBytes;
  return { stdout: capStream(result.stdout, cap), stderr: capStream(result.stderr, cap), exitCode: result.exitCode };
}

export function createBashTool(sandbox: Sandbox, settings: WorkspaceSettings) {
  return tool<{ command: string }, BashResult, {}>({
    description: [
      `Run a bash command in your sandbox (working directory ${settings.cwd}); returns { stdout, stderr, exitCode }.`,
      "Each call starts a fresh shell: variables, functions and cd do not persist, file changes do.",
      `Commands stop after ${settings.timeoutMs} ms with exit code 124.`,
    ].join(" "),
    inputSchema: jsonSchema<{ command: string }>({
      type: "object",
      properties: { command: { type: "string", description: "The bash command line to run." } },
      required: ["command"],
      additionalProperties: false,
    }),
    outputSchema: jsonSchema<BashResult>({
      type: "object",
      properties: { stdout: { type: "string" }, stderr: { type: "string" }, exitCode: { type: "number" } },
      required: ["stdout", "stderr", "exitCode"],
    }),
    execute: ({ command }, { abortSignal }) => runCommand(sandbox, settings, command, abortSignal),
    toModelOutput: ({ output }) => ({ type: "text", value: bashDisplay(output) }),
  });
}
