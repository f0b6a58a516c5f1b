import type { CodemodeLimits } from "./limits.js";

/** JSON as it crosses the sandbox boundary: no prototypes, no functions, no `undefined`. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Runs one host tool for a program (spec 05 CT-8): the runtime passes a function that invokes the tool's
 * `execute` through the agent with `caller: "codemode"`. `input` is parsed JSON; the returned value is
 * normalised to JSON before the program sees it. The signal aborts when the program ends, hits its deadline
 * or the turn is aborted; a call that throws becomes `codemode: Tool "<name>" failed: <message>` in the guest.
 */
export type CodemodeToolCall = (name: string, input: unknown, signal: AbortSignal) => Promise<unknown>;

/** A tool a program may call as `tools.<name>(input)`. */
export interface CodemodeCallableTool {
  readonly name: string;
  /** Tools that need approval are refused inside programs (CT-15). */
  readonly needsApproval?: boolean;
}

export interface CodemodeRunRequest {
  /** The model's program: JavaScript or TypeScript with top-level `await` and `return`. */
  readonly js: string;
  /** The program-callable tools of the current catalog, e.g. those whose ToolCallers entry lists `codemode`. */
  readonly tools: readonly CodemodeCallableTool[];
  readonly callTool: CodemodeToolCall;
  /** The turn's signal: aborting it stops the program and makes `run` reject with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Error text for a name outside `tools`; toolsearch supplies its "call search to discover it" text (CT-29). */
  readonly describeUnknownTool?: (name: string) => string;
}

/**
 * How a program ended. Failures are results, not throws (CT-18): `error` is the exact text the model sees,
 * console output already appended (CT-16); the caller throws it as a `ToolError`.
 */
export type CodemodeOutcome =
  | { readonly ok: true; readonly value: JsonValue; readonly console: readonly string[] }
  | { readonly ok: false; readonly error: string; readonly console: readonly string[] };

export interface CodemodeSandboxStats {
  /** Workers alive in the pool. */
  readonly workers: number;
  /** Workers running a program now. */
  readonly busy: number;
  /** Workers replaced after a crash, an abort, the wall-clock backstop or a memory-hungry program. */
  readonly replaced: number;
  /** Most workers the pool runs at once. */
  readonly size: number;
}

/**
 * Runs programs in fresh QuickJS runtimes inside pooled worker threads (CT-7). Sandboxes share the process's
 * pool unless given a private one; `close()` returns the sandbox's lease (the shared pool's threads end with
 * the last lease, a private pool's at once), after which `run` rejects.
 */
export interface CodemodeSandbox {
  readonly limits: CodemodeLimits;
  /** Resolves with the outcome; rejects only when `request.signal` aborts (with its reason) or after `close()`. */
  run(request: CodemodeRunRequest): Promise<CodemodeOutcome>;
  stats(): CodemodeSandboxStats;
  /** Heap in use (V8, bytes) of each idle worker's thread, for leak checks (CT-14). */
  measureWorkerHeaps(): Promise<number[]>;
  close(): Promise<void>;
}

export interface CodemodeSandboxOptions {
  readonly limits?: Partial<CodemodeLimits>;
  /**
   * A private pool of this many workers instead of the process's shared one (`configureCodemodeWorkers`).
   * For tests and benchmarks that count workers; runtimes use the shared pool.
   */
  readonly poolSize?: number;
}
