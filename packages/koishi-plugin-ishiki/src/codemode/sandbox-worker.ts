import { Worker } from "node:worker_threads";
import type { CodemodeLimits } from "./limits.js";
import type { HostMessage, WorkerBoot, WorkerMessage } from "./worker/protocol.js";
import type { WorkerScript } from "./worker-source.js";

/** Receives one run's messages; the pool attaches the session of the program the worker is running. */
export interface WorkerListener {
  message(message: WorkerMessage): void;
  /** The thread died (crash, out-of-heap, termination); the worker must not be reused. */
  exited(reason: string): void;
}

/** Host handle of one sandbox worker thread. */
export class SandboxWorker {
  readonly ready: Promise<void>;
  listener: WorkerListener | undefined;
  private readonly thread: Worker;
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  private alive = true;
  private measured: ((heapUsedBytes: number) => void) | undefined;

  constructor(script: WorkerScript, memoryPages: number, limits: CodemodeLimits) {
    const boot: WorkerBoot = {
      quickjsPath: script.quickjsPath,
      memoryPages,
      memoryLimitBytes: limits.memoryLimitBytes,
      maxStackBytes: limits.maxStackBytes,
      prelude: script.prelude,
      pathFinder: script.pathFinder,
      stop: this.stopFlag,
    };
    this.thread = new Worker(script.source, { eval: true, workerData: boot });
    // Idle workers must not keep the host process alive; a running program is held by its session's timers.
    this.thread.unref();
    this.ready = new Promise((resolve, reject) => {
      this.thread.on("message", (message: WorkerMessage) => {
        if (message.type === "ready") resolve();
        else if (message.type === "failed") this.died(message.reason, reject);
        else if (message.type === "measured") this.measured?.(message.heapUsedBytes);
        else this.listener?.message(message);
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

  private died(reason: string, reject: (error: Error) => void): void {
    if (!this.alive) return;
    this.alive = false;
    // After a successful start this rejection is a no-op; the listener (if running a program) learns instead.
    reject(new Error(`codemode: sandbox worker failed to start (${reason})`));
    this.listener?.exited(reason);
  }
}
