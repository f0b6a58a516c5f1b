import type * as NodeV8 from "node:v8";
import type * as NodeVm from "node:vm";
import type * as NodeWorkerThreads from "node:worker_threads";
import type * as QuickJS from "quickjs-emscripten";
import type { HostMessage, RunEnd, RunRequest, WorkerBoot, WorkerMessage } from "./protocol.js";
import type { GuestValues } from "./guest-values.js";

/**
 * The whole program of a sandbox worker thread. The host starts the worker from this function's source text
 * (`workerMain.toString()`), so the body must reference nothing outside itself: modules come through `load`
 * (the worker's `require`), the value copies (guest-values.ts, also sent as text) through `guestValues`,
 * and only `import type` may appear above.
 *
 * One program runs at a time, each in a fresh QuickJS runtime and context on the sync release build, with host
 * tool calls bridged through promises (spec 05 CT-7, CT-13, CT-14).
 */
export function workerMain(load: (id: string) => unknown, guestValues: () => GuestValues): void {
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
    /** Set while the return value is encoded: a `toJSON` that calls a tool then makes the call pending, unsent. */
    returning: boolean;
    /** Process RSS when the program started, to retire a worker whose program touched much new memory. */
    rssAtStart: number;
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
  // The memory never grows, so this view stays valid; it is only read, to tell an out-of-memory `null` apart.
  const words = new Int32Array((memory as unknown as { buffer: ArrayBuffer }).buffer);
  const values = guestValues();
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
      const context = scope.manage(runtime.newContext());
      const prelude = scope.manage(context.unwrapResult(context.evalCode(boot.prelude, "prelude.js")));
      let run: Run | undefined;
      const hostCall = scope.manage(
        context.newFunction("call", (name, value, input) => (run ? hostCallFrom(run, name, value, input) : undefined)),
      );
      const hostLog = scope.manage(
        context.newFunction("log", (level, text) => {
          if (run && !run.consoleFull) log(run, context.getString(level), values.read(run.context, run.api, text));
        }),
      );
      const sideUnits = scope.manage(context.newNumber(boot.sideStringUnits));
      const api = scope.manage(context.unwrapResult(context.callFunction(prelude, context.undefined, hostCall, hostLog, sideUnits)));
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
        returning: false,
        rssAtStart: 0,
      };
      return run;
    } catch (error) {
      scope.dispose();
      runtime.dispose();
      throw error;
    }
  }

  function hostCallFrom(run: Run, name: QuickJS.QuickJSHandle, value: QuickJS.QuickJSHandle, input: QuickJS.QuickJSHandle) {
    const context = run.context;
    const kind = context.typeof(value);
    if (kind !== "object" && kind !== "string") {
      const path = findPath(run, input);
      const message = `tool input is not JSON-serialisable at ${typeof path === "string" ? path : "$"}`;
      return { error: typeof path === "string" ? context.newError({ name: "TypeError", message }) : path.dup() };
    }
    const callId = ++run.nextCallId;
    const deferred = context.newPromise();
    run.calls.set(callId, deferred);
    // The program has already returned: the call stays pending (and fails the program), and never runs.
    if (run.returning) return deferred.handle;
    const runId = (run.request as RunRequest).runId;
    post({ type: "call", runId, callId, name: context.getString(name), ...values.readOutbound(run.context, run.api, value) });
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
      post({ type: "done", runId: request.runId, end, console: [], broken, retire: false });
      return;
    }
    prepared = undefined;
    run.request = request;
    run.deadline = Date.now() + request.timeoutMs;
    run.rssAtStart = process.memoryUsage.rss();
    active = run;
    const { context, scope, api } = run;
    try {
      run.runtime.setMemoryLimit(request.memoryLimitBytes);
      run.runtime.setMaxStackSize(request.maxStackBytes);
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
      if (message.ok) {
        const decoded = values.decode(run.context, run.api, message);
        if (decoded.error) deferred.reject(run.scope.manage(decoded.error));
        else deferred.resolve(run.scope.manage(decoded.value));
      } else {
        const text = values.toGuest(run.context, message.message);
        deferred.reject(text);
        text.dispose();
      }
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
    // A job that could not finish (out of memory) ends the run, even when the program's own promise settled
    // before it. An interrupt inside a promise job is caught by QuickJS as that job's rejection, so a microtask
    // spin ends without an error: past the deadline, the program timed out whatever its promise holds.
    if (jobs.error) return finish(run, classify(run, run.scope.manage(jobs.error)));
    if (timeIsUp(run)) return finish(run, { kind: "interrupted" });
    const state = context.getPromiseState(run.promise as QuickJS.QuickJSHandle);
    if (state.type === "pending") {
      // Nothing but a tool result can wake the guest (it has no timers): with none in flight it never settles.
      if (run.calls.size === 0) finish(run, { kind: "never-settles" });
      return;
    }
    if (state.type === "rejected") return finish(run, classify(run, run.scope.manage(state.error)));
    const value = run.scope.manage(state.value);
    if (run.calls.size > 0) return finish(run, { kind: "pending-calls", count: run.calls.size });
    run.returning = true;
    const encode = run.scope.manage(context.getProp(run.api, "encode"));
    const encoded = context.callFunction(encode, context.undefined, value);
    if (encoded.error) return finish(run, classify(run, run.scope.manage(encoded.error)));
    const box = run.scope.manage(encoded.value);
    // Tool calls a `toJSON` started while the value was encoded were never sent; they count as pending.
    if (run.calls.size > 0) return finish(run, { kind: "pending-calls", count: run.calls.size });
    const kind = context.typeof(box);
    if (kind === "object" || kind === "string") return finish(run, { kind: "returned", ...values.readOutbound(run.context, run.api, box) });
    if (context.typeof(value) === "undefined") return finish(run, { kind: "returned", json: "null", strings: [] });
    const path = findPath(run, value);
    if (run.calls.size > 0) return finish(run, { kind: "pending-calls", count: run.calls.size });
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
    if (timeIsUp(run)) return { kind: "interrupted" };
    const end = describe(run, thrown);
    // Describing the value ran guest code (getters, toJSON): a deadline that passed meanwhile wins.
    return timeIsUp(run) ? { kind: "interrupted" } : end;
  }

  function timeIsUp(run: Run): boolean {
    return stopRequested() || Date.now() > run.deadline;
  }

  function describe(run: Run, thrown: QuickJS.QuickJSHandle): RunEnd {
    const { context, scope } = run;
    const isNull = context.typeof(thrown) === "object" && context.sameValue(thrown, context.null);
    // QuickJS throws null when it cannot even allocate its out-of-memory error; a program's own `throw null`
    // leaves the memory near the limit untouched.
    if (isNull && memoryTouchedAbove(Math.floor((run.request as RunRequest).memoryLimitBytes * 0.75))) return { kind: "out-of-memory" };
    const describeFn = scope.manage(context.getProp(run.api, "describe"));
    const described = context.callFunction(describeFn, context.undefined, thrown);
    if (described.error) {
      scope.manage(described.error);
      return { kind: "thrown", name: "Error", message: "a value that cannot be shown", fromHost: false };
    }
    const parts = scope.manage(described.value);
    const part = (index: number): string | undefined => {
      const item = scope.manage(context.getProp(parts, index));
      return context.typeof(item) === "string" ? values.read(run.context, run.api, item) : undefined;
    };
    const name = part(0);
    const message = part(1) ?? "";
    if (name === undefined) return { kind: "thrown", name: "Error", message, fromHost: false };
    if (name === "InternalError" && message === "out of memory") return { kind: "out-of-memory" };
    if (name === "InternalError" && message === "stack overflow") return { kind: "stack-overflow" };
    const frame = /\(program\.js:(\d+)/.exec(part(2) ?? "");
    return { kind: "thrown", name, message, line: frame ? Number(frame[1]) : undefined, fromHost: part(3) === "host" };
  }

  /**
   * Whether the module's memory holds data above `offset`. The heap grows upward from low addresses and pages
   * it never reached are still zero, so one word per 4 KiB page is enough to see a heap that went there.
   */
  function memoryTouchedAbove(offset: number): boolean {
    for (let at = words.length - 1024; at * 4 >= offset; at -= 1024) if (words[at] !== 0 || words[at + 512] !== 0) return true;
    return false;
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
    const request = run.request as RunRequest;
    // Pages the program touched stay resident as long as the module lives: a program that went out of memory
    // or grew the process noticeably gets a fresh worker after it, so memory returns to the baseline.
    const grown = process.memoryUsage.rss() - run.rssAtStart;
    const retire = end.kind === "out-of-memory" || grown > Math.min(boot.retireGrowthBytes, request.memoryLimitBytes / 2);
    post({ type: "done", runId: request.runId, end, console: run.console, broken, retire });
    try {
      for (const deferred of run.calls.values()) deferred.dispose();
      run.calls.clear();
      run.scope.dispose();
      run.runtime.dispose();
    } catch (error) {
      fail(error);
      return;
    }
    if (!broken && !retire) setImmediate(prepareNext);
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
