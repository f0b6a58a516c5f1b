/** Deepest nesting a value may have when it crosses the sandbox boundary, in either direction (decided here). */
export const CROSSING_DEPTH = 1000;
/** Strings at least this long cross beside the JSON text instead of inside it. */
export const SIDE_STRING_UNITS = 4096;
/**
 * A side string's place in the JSON text: this mark (a private-use character) plus its decimal index. Every
 * string starting with the mark crosses aside when it can, so a string left in the text never reads as a marker.
 */
export const SIDE_MARK = "\ue000";

/**
 * A JSON value as it crosses: the JSON text, with each long string (and each string starting with SIDE_MARK)
 * replaced by a marker and carried in `strings`. Long strings then skip both JSON parsers and their escaping.
 * Strings with lone surrogates stay in the text, and so do the host's strings with NULs: the copy into
 * QuickJS is NUL-terminated UTF-8, while JSON escapes keep both exact. (The worker re-reads a guest string
 * whose copy stopped at a NUL as JSON text.)
 */
export interface Crossing {
  readonly json: string;
  readonly strings: readonly string[];
}

/** Data given to each worker at spawn (`workerData`). */
export interface WorkerBoot {
  /** Absolute path of quickjs-emscripten's CommonJS entry, resolved by the host from its own location. */
  readonly quickjsPath: string;
  /** Fixed WebAssembly memory of the worker's QuickJS module, in 64 KiB pages (initial = maximum). */
  readonly memoryPages: number;
  /** Guest helper source (see guest-prelude.ts), evaluated in every fresh context. */
  readonly prelude: string;
  /** Guest source of the path finder, compiled only when a value is not JSON. */
  readonly pathFinder: string;
  /** Int32Array over a SharedArrayBuffer: the host stores 1 to stop the running program at its next interrupt check. */
  readonly stop: Int32Array;
  readonly sideStringUnits: number;
  /**
   * Growth of the process's resident memory during one program (capped at half the program's memory limit)
   * after which the worker retires (see `WorkerMessage` "done"): pages a program touched stay resident for as
   * long as the module lives.
   */
  readonly retireGrowthBytes: number;
}

export interface RunRequest {
  readonly type: "run";
  readonly runId: number;
  /** Compiled program: an async function expression taking `(tools, console)`. */
  readonly code: string;
  readonly toolNames: readonly string[];
  readonly timeoutMs: number;
  readonly maxConsoleBytes: number;
  /** Limits of the program's fresh runtime; they differ between profiles sharing the worker. */
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
}

export type HostMessage =
  | RunRequest
  | { readonly type: "settle"; readonly runId: number; readonly callId: number; readonly ok: true; readonly json: string; readonly strings: readonly string[] }
  | { readonly type: "settle"; readonly runId: number; readonly callId: number; readonly ok: false; readonly message: string }
  /** Ends the run if the worker is waiting on host calls (a spinning guest sees the shared stop flag instead). */
  | { readonly type: "stop"; readonly runId: number }
  | { readonly type: "measure" };

/** How the guest ended, before the host turns it into an error text. Lines are lines of the compiled code. */
export type RunEnd =
  | ({ readonly kind: "returned" } & Crossing)
  | { readonly kind: "thrown"; readonly name: string; readonly message: string; readonly line?: number; readonly fromHost: boolean }
  | { readonly kind: "interrupted" }
  | { readonly kind: "out-of-memory" }
  | { readonly kind: "stack-overflow" }
  | { readonly kind: "never-settles" }
  | { readonly kind: "pending-calls"; readonly count: number }
  | { readonly kind: "not-json"; readonly path: string }
  | { readonly kind: "crashed"; readonly reason: string };

export type WorkerMessage =
  | { readonly type: "ready" }
  | ({ readonly type: "call"; readonly runId: number; readonly callId: number; readonly name: string } & Crossing)
  /**
   * `broken`: the QuickJS module failed (e.g. aborted while disposing); `retire`: the program ran out of memory
   * or grew the process by `retireGrowthBytes`. Either way the host replaces the worker, so its memory returns to the baseline.
   */
  | { readonly type: "done"; readonly runId: number; readonly end: RunEnd; readonly console: string[]; readonly broken: boolean; readonly retire: boolean }
  | { readonly type: "measured"; readonly heapUsedBytes: number }
  /** The worker cannot run programs (its module failed to load or can no longer be trusted); replace it. */
  | { readonly type: "failed"; readonly reason: string };
