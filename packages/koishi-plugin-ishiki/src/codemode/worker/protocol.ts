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
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
}

export interface RunRequest {
  readonly type: "run";
  readonly runId: number;
  /** Compiled program: an async function expression taking `(tools, console)`. */
  readonly code: string;
  readonly toolNames: readonly string[];
  readonly timeoutMs: number;
  readonly maxConsoleBytes: number;
}

export type HostMessage =
  | RunRequest
  | { readonly type: "settle"; readonly runId: number; readonly callId: number; readonly ok: true; readonly json: string }
  | { readonly type: "settle"; readonly runId: number; readonly callId: number; readonly ok: false; readonly message: string }
  /** Ends the run if the worker is waiting on host calls (a spinning guest sees the shared stop flag instead). */
  | { readonly type: "stop"; readonly runId: number }
  | { readonly type: "measure" };

/** How the guest ended, before the host turns it into an error text. Lines are lines of the compiled code. */
export type RunEnd =
  | { readonly kind: "returned"; readonly json: string }
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
  | { readonly type: "call"; readonly runId: number; readonly callId: number; readonly name: string; readonly json: string }
  /** `broken`: the QuickJS module failed (e.g. aborted while disposing); the host must replace the worker. */
  | { readonly type: "done"; readonly runId: number; readonly end: RunEnd; readonly console: string[]; readonly broken: boolean }
  | { readonly type: "measured"; readonly heapUsedBytes: number }
  /** The worker cannot run programs (its module failed to load or can no longer be trusted); replace it. */
  | { readonly type: "failed"; readonly reason: string };
