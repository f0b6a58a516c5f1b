import type * as NodeV8 from "node:v8";
import type * as NodeVm from "node:vm";
import type * as NodeWorkerThreads from "node:worker_threads";
import type * as QuickJS from "quickjs-emscripten";
import type { HostMessage, RunEnd, RunRequest, WorkerBoot, WorkerMessage } from "./protocol.js";

/**
 * The whole program of a sandbox worker thread. The host starts the worker from this function's source text
 * (`workerMain.toString()`), so the body must reference nothing outside itself: modules come through `load`
 * (the worker's `require`), and only `import type` may appear above.
 *
 * One program runs at a time, each in a fresh QuickJS runtime and context on the sync release build, with host
 * tool calls bridged through promises (spec 05 CT-7, CT-13, CT-14).
 */
export function workerMain(load: (id: string) => unknown): void {
  const threads = load("node:worker_threads") as typeof NodeWorkerThreads;
  const v8 = load("node:v8") as typeof NodeV8;
  const vm = load("node:vm") as typeof NodeVm;
  const boot = threads.workerData as WorkerBoot;
  const port = threads.parentPort as NodeWorkerThreads.MessagePort;
  const quickjs = load(boot.quickjsPath) as typeof QuickJS;

  /**
   * One program's runtime and context. It is prepared while the worker is idle, so the setup cost is off the
   * program's path, and it is used for exactly one program (the program makes it "active").
   */
  interface Run {
    readonly runtime: QuickJS.QuickJSRuntime;
    readonly scope: QuickJS.Scope;
    readonly context: QuickJS.QuickJSContext;
    readonly api: QuickJS.QuickJSHandle;
    readonly calls: Map<number, QuickJS.QuickJSDeferredPromise>;
    readonly console: string[];
    request?: RunRequest;
    deadline: number;
    promise?: QuickJS.QuickJSHandle;
    pathFinder?: QuickJS.QuickJSHandle;
    nextCallId: number;
    consoleBytes: number;
    consoleFull: boolean;
    finished: boolean;
  }

  let module: QuickJS.QuickJSWASMModule;
  let prepared: Run | undefined;
  let active: Run | undefined;
  let broken = false;
  const post = (message: WorkerMessage) => port.postMessage(message);
  const stopRequested = () => Atomics.load(boot.stop, 0) !== 0;

  // A fixed-size memory is what actually bounds the module: the runtime's own limit misses some allocations,
  // and growth during pending jobs can later abort the module on dispose.
  // The compiler's lib has WebAssembly types but not its globals.
  type Memory = NonNullable<QuickJS.CustomizeVariantOptions["wasmMemory"]>;
  const wasm = (globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number; maximum: number }) => Memory } })
    .WebAssembly;
  const memory = new wasm.Memory({ initial: boot.memoryPages, maximum: boot.memoryPages });
  quickjs.newQuickJSWASMModule(quickjs.newVariant(quickjs.RELEASE_SYNC, { wasmMemory: memory })).then(
    (loaded) => {
      module = loaded;
      prepared = prepare();
      port.on("message", receive);
      post({ type: "ready" });
    },
    (error: unknown) => post({ type: "failed", reason: String(error) }),
  );

  function receive(message: HostMessage): void {
    if (message.type === "run") start(message);
    else if (message.type === "settle") settle(message);
    else if (message.type === "stop") {
      if (active?.request?.runId === message.runId) finish(active, { kind: "interrupted" });
    } else post({ type: "measured", heapUsedBytes: measureHeap() });
  }

  /** Live heap after a full collection, so leak checks compare retained memory rather than garbage. */
  function measureHeap(): number {
    v8.setFlagsFromString("--expose-gc");
    (vm.runInNewContext("gc") as () => void)();
    return v8.getHeapStatistics().used_heap_size;
  }

  function prepare(): Run {
    const runtime = module.newRuntime();
    const scope = new quickjs.Scope();
    try {
      runtime.setMemoryLimit(boot.memoryLimitBytes);
      runtime.setMaxStackSize(boot.maxStackBytes);
      const context = scope.manage(runtime.newContext());
      const prelude = scope.manage(context.unwrapResult(context.evalCode(boot.prelude, "prelude.js")));
      let run: Run | undefined;
      const hostCall = scope.manage(
        context.newFunction("call", (name, json, input) => (run ? hostCallFrom(run, name, json, input) : undefined)),
      );
      const hostLog = scope.manage(
        context.newFunction("log", (level, text) => {
          if (run) log(run, context.getString(level), context.getString(text));
        }),
      );
      const api = scope.manage(context.unwrapResult(context.callFunction(prelude, context.undefined, hostCall, hostLog)));
      run = {
        runtime,
        scope,
        context,
        api,
        calls: new Map(),
        console: [],
        deadline: Number.POSITIVE_INFINITY,
        nextCallId: 0,
        consoleBytes: 0,
        consoleFull: false,
        finished: false,
      };
      return run;
    } catch (error) {
      scope.dispose();
      runtime.dispose();
      throw error;
    }
  }

  function hostCallFrom(run: Run, name: QuickJS.QuickJSHandle, json: QuickJS.QuickJSHandle, input: QuickJS.QuickJSHandle) {
    const context = run.context;
    if (context.typeof(json) !== "string") {
      const path = findPath(run, input);
      const message = `tool input is not JSON-serialisable at ${typeof path === "string" ? path : "$"}`;
      return { error: typeof path === "string" ? context.newError({ name: "TypeError", message }) : path.dup() };
    }
    const callId = ++run.nextCallId;
    const deferred = context.newPromise();
    run.calls.set(callId, deferred);
    const runId = (run.request as RunRequest).runId;
    post({ type: "call", runId, callId, name: context.getString(name), json: context.getString(json) });
    return deferred.handle;
  }

  function log(run: Run, level: string, text: string): void {
    if (run.consoleFull) return;
    const line = `[${level}] ${text}`;
    const bytes = Buffer.byteLength(line) + 1;
    if (run.consoleBytes + bytes > (run.request as RunRequest).maxConsoleBytes) {
      run.consoleFull = true;
      run.console.push("[console truncated]");
      return;
    }
    run.consoleBytes += bytes;
    run.console.push(line);
  }

  function start(request: RunRequest): void {
    // The host sends one program at a time; a leftover run would otherwise keep its runtime forever.
    if (active) finish(active, { kind: "interrupted" });
    let run: Run;
    try {
      run = prepared ?? prepare();
    } catch (error) {
      const end = crash(error);
      post({ type: "done", runId: request.runId, end, console: [], broken });
      return;
    }
    prepared = undefined;
    run.request = request;
    run.deadline = Date.now() + request.timeoutMs;
    active = run;
    const { context, scope, api } = run;
    try {
      const bind = scope.manage(context.getProp(api, "bind"));
      const names = scope.manage(context.newString(JSON.stringify(request.toolNames)));
      const bound = scope.manage(context.unwrapResult(context.callFunction(bind, context.undefined, names)));
      const tools = scope.manage(context.getProp(bound, "tools"));
      const console = scope.manage(context.getProp(bound, "console"));
      // Only guest code is interruptible: an interrupt inside our own setup would look like a module failure.
      run.runtime.setInterruptHandler(() => stopRequested() || Date.now() > run.deadline);
      const compiled = context.evalCode(request.code, "program.js");
      if (compiled.error) return finish(run, classify(run, scope.manage(compiled.error)));
      const program = scope.manage(compiled.value);
      const started = context.callFunction(program, context.undefined, tools, console);
      if (started.error) return finish(run, classify(run, scope.manage(started.error)));
      run.promise = scope.manage(started.value);
      pump(run);
    } catch (error) {
      finish(run, crash(error));
    }
  }

  function settle(message: Extract<HostMessage, { type: "settle" }>): void {
    const run = active;
    if (!run || run.request?.runId !== message.runId) return;
    const deferred = run.calls.get(message.callId);
    if (!deferred) return;
    run.calls.delete(message.callId);
    try {
      const value = run.context.newString(message.ok ? message.json : message.message);
      if (message.ok) deferred.resolve(value);
      else deferred.reject(value);
      value.dispose();
      deferred.dispose();
      pump(run);
    } catch (error) {
      finish(run, crash(error));
    }
  }

  /** Runs guest jobs until it waits on the host again, then ends the run if the program has settled. */
  function pump(run: Run): void {
    const context = run.context;
    const jobs = run.runtime.executePendingJobs();
    const jobError = jobs.error ? run.scope.manage(jobs.error) : undefined;
    const state = context.getPromiseState(run.promise as QuickJS.QuickJSHandle);
    if (state.type === "pending") {
      if (jobError) finish(run, classify(run, jobError));
      // Nothing but a tool result can wake the guest (it has no timers): with none in flight it never settles.
      else if (run.calls.size === 0) finish(run, { kind: "never-settles" });
      return;
    }
    if (state.type === "rejected") return finish(run, classify(run, run.scope.manage(state.error)));
    const value = run.scope.manage(state.value);
    if (run.calls.size > 0) return finish(run, { kind: "pending-calls", count: run.calls.size });
    const encode = run.scope.manage(context.getProp(run.api, "encode"));
    const encoded = context.callFunction(encode, context.undefined, value);
    if (encoded.error) return finish(run, classify(run, run.scope.manage(encoded.error)));
    const json = run.scope.manage(encoded.value);
    if (context.typeof(json) === "string") return finish(run, { kind: "returned", json: context.getString(json) });
    if (context.typeof(value) === "undefined") return finish(run, { kind: "returned", json: "null" });
    const path = findPath(run, value);
    finish(run, typeof path === "string" ? { kind: "not-json", path } : classify(run, path));
  }

  /** The path where `value` stops being JSON, or what the guest threw while looking (e.g. from a `toJSON`). */
  function findPath(run: Run, value: QuickJS.QuickJSHandle): string | QuickJS.QuickJSHandle {
    const context = run.context;
    run.pathFinder ??= run.scope.manage(context.unwrapResult(context.evalCode(boot.pathFinder, "path-finder.js")));
    const found = context.callFunction(run.pathFinder, context.undefined, value);
    if (found.error) return run.scope.manage(found.error);
    const path = run.scope.manage(found.value);
    return context.typeof(path) === "string" ? context.getString(path) : "$";
  }

  function classify(run: Run, thrown: QuickJS.QuickJSHandle): RunEnd {
    if (stopRequested() || Date.now() > run.deadline) return { kind: "interrupted" };
    const context = run.context;
    const value: unknown = context.dump(thrown);
    // QuickJS throws null when it cannot even allocate its out-of-memory error.
    if (value === null || value === undefined) return { kind: "out-of-memory" };
    const error = value as { name?: unknown; message?: unknown; stack?: unknown };
    if (typeof value !== "object" || typeof error.name !== "string" || typeof error.message !== "string") {
      return { kind: "thrown", name: "Error", message: typeof value === "string" ? value : JSON.stringify(value), fromHost: false };
    }
    if (error.name === "InternalError" && error.message === "out of memory") return { kind: "out-of-memory" };
    if (error.name === "InternalError" && error.message === "stack overflow") return { kind: "stack-overflow" };
    const isFromHost = run.scope.manage(context.getProp(run.api, "isFromHost"));
    const marked = context.callFunction(isFromHost, context.undefined, thrown);
    const fromHost = !marked.error && context.dump(run.scope.manage(marked.value)) === true;
    if (marked.error) run.scope.manage(marked.error);
    const frame = /\(program\.js:(\d+)/.exec(typeof error.stack === "string" ? error.stack : "");
    return { kind: "thrown", name: error.name, message: error.message, line: frame ? Number(frame[1]) : undefined, fromHost };
  }

  function crash(error: unknown): RunEnd {
    // After any host-side failure the module's state is unknown (an emscripten abort leaves it unusable).
    broken = true;
    return { kind: "crashed", reason: error instanceof Error ? error.message : String(error) };
  }

  /** Reports first, then disposes, then prepares the next program's runtime while the host is busy with the result. */
  function finish(run: Run, end: RunEnd): void {
    if (run.finished) return;
    run.finished = true;
    if (active === run) active = undefined;
    post({ type: "done", runId: (run.request as RunRequest).runId, end, console: run.console, broken });
    try {
      for (const deferred of run.calls.values()) deferred.dispose();
      run.calls.clear();
      run.scope.dispose();
      run.runtime.dispose();
    } catch (error) {
      fail(error);
      return;
    }
    if (!broken) setImmediate(prepareNext);
  }

  function prepareNext(): void {
    if (prepared || active || broken) return;
    try {
      prepared = prepare();
    } catch (error) {
      fail(error);
    }
  }

  /** The module can no longer be trusted (e.g. an emscripten abort while disposing): the host replaces the worker. */
  function fail(error: unknown): void {
    if (broken) return;
    broken = true;
    post({ type: "failed", reason: error instanceof Error ? error.message : String(error) });
  }
}
