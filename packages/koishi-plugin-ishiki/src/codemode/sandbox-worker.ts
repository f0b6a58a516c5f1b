import { Worker } from "node:worker_threads";
import { SIDE_STRING_UNITS, type HostMessage, type WorkerBoot, type WorkerMessage } from "./worker/protocol.js";
import type { WorkerScript } from "./worker-source.js";

/** Receives one run's messages; the pool attaches the session of the program the worker is running. */
export interface WorkerListener {
  message(message: WorkerMessage): void;
  /** The thread died (crash, out-of-heap, termination); the worker must not be reused. */
  exited(reason: string): void;
}

/** Resident growth during one program after which its worker retires (see protocol.ts `retireGrowthBytes`). */
const RETIRE_GROWTH_BYTES = 64 * 1024 * 1024;

/**
 * QuickJS's C recursion runs on the thread's native stack as WebAssembly frames, while its own stack check
 * (`maxStackBytes`) measures the module's shadow stack. With Node's default 4 MB, deep guest values (a
 * 20,000-level JSON.stringify) overflowed the native stack first, a RangeError that left the module unusable;
 * with this much room QuickJS's own "stack overflow" comes first. Only the touched part becomes resident.
 */
const WORKER_STACK_MB = 128;

/** Host handle of one sandbox worker thread. */
export class SandboxWorker {
  readonly ready: Promise<void>;
  listener: WorkerListener | undefined;
  private readonly thread: Worker;
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  private alive = true;
  private measured: ((heapUsedBytes: number) => void) | undefined;

  /** Size of the worker's fixed WebAssembly memory, in 64 KiB pages. */
  readonly memoryPages: number;

  constructor(script: WorkerScript, memoryPages: number) {
    this.memoryPages = memoryPages;
    const boot: WorkerBoot = {
      quickjsPath: script.quickjsPath,
      memoryPages,
      prelude: script.prelude,
      pathFinder: script.pathFinder,
      stop: this.stopFlag,
      sideStringUnits: SIDE_STRING_UNITS,
      retireGrowthBytes: RETIRE_GROWTH_BYTES,
    };
    this.thread = new Worker(script.source, { eval: true, workerData: boot, resourceLimits: { stackSizeMb: WORKER_STACK_MB } });
    // Idle workers must not keep the host process alive; a running program is held by its session's timers.
    this.thread.unref();
    this.ready = new Promise((resolve, reject) => {
      this.thread.on("message", (message: WorkerMessage) => {
        if (message.type === "ready") resolve();
        else if (message.type === "failed") this.died(message.reason, reject);
        else if (message.type === "measured") this.measured?.(message.heapUsedBytes);
        else this.deliver(message);
      });
      this.thread.on("error", (error) => this.died(error.message, reject));
      this.thread.on("exit", (code) => this.died(`worker exited with code ${code}`, reject));
    });
    // A failed start is reported to whoever awaits `ready`; this only keeps it from being unhandled meanwhile.
    this.ready.catch(() => undefined);
  }

  get isAlive(): boolean {
    return this.alive;
  }

  send(message: HostMessage): void {
    this.thread.postMessage(message);
  }

  /** Makes the guest's interrupt handler fire at its next check, even while it spins in bytecode. */
  requestStop(): void {
    Atomics.store(this.stopFlag, 0, 1);
  }

  clearStop(): void {
    Atomics.store(this.stopFlag, 0, 0);
  }

  /** V8 heap in use on the worker's thread; only for an idle worker. */
  measureHeap(): Promise<number> {
    return new Promise((resolve) => {
      this.measured = resolve;
      this.send({ type: "measure" });
    });
  }

  async terminate(): Promise<void> {
    this.alive = false;
    await this.thread.terminate();
  }

  /**
   * Hands a run's message to its session. The session decodes guest data in its own try; should anything still
   * throw, it must not escape into the EventEmitter (an uncaught exception ends Koishi): the worker is ended
   * and the program fails as a crash.
   */
  private deliver(message: WorkerMessage): void {
    try {
      this.listener?.message(message);
    } catch (error) {
      const reason = `host failed to handle a sandbox message: ${error instanceof Error ? error.message : String(error)}`;
      const listener = this.listener;
      this.listener = undefined;
      this.alive = false;
      void this.thread.terminate();
      listener?.exited(reason);
    }
  }

  private died(reason: string, reject: (error: Error) => void): void {
    if (!this.alive) return;
    this.alive = false;
    // After a successful start this rejection is a no-op; the listener (if running a program) learns instead.
    reject(new Error(`codemode: sandbox worker failed to start (${reason})`));
    this.listener?.exited(reason);
  }
}
