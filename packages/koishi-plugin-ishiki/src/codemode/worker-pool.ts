import type { SandboxWorker } from "./sandbox-worker.js";

interface Waiter {
  readonly memoryPages: number;
  give(worker: SandboxWorker): void;
  fail(error: Error): void;
}

/**
 * At most `size` workers; a program takes an idle one, starts one while under the size, or waits in order.
 * Each worker's WebAssembly memory is fixed at spawn (`memoryPages`): a program whose limit needs another size
 * takes an idle worker of that size, or replaces an idle one of another size, so profiles with different
 * limits share the threads without exceeding `size`. A worker that cannot be trusted again, or that retired
 * after a memory-hungry program, is discarded and replaced at once, so the next program finds it warm.
 */
export class WorkerPool {
  private readonly idle: SandboxWorker[] = [];
  private readonly all = new Set<SandboxWorker>();
  private readonly waiting: Waiter[] = [];
  private closed = false;
  replaced = 0;

  constructor(
    private readonly spawn: (memoryPages: number) => SandboxWorker,
    private size: number,
  ) {}

  get workers(): number {
    return this.all.size;
  }

  get busy(): number {
    return this.all.size - this.idle.length;
  }

  get limit(): number {
    return this.size;
  }

  /** Changes the number of workers; idle workers over the new size end now, busy ones when they are released. */
  resize(size: number): void {
    this.size = size;
    while (this.all.size > this.size && this.idle.length > 0) this.retire(this.idle.shift() as SandboxWorker);
    this.serveWaiters();
  }

  async acquire(memoryPages: number, signal?: AbortSignal): Promise<SandboxWorker> {
    if (this.closed) throw new Error("codemode: sandbox is closed");
    const worker = this.takeIdle(memoryPages) ?? (await this.wait(memoryPages, signal));
    try {
      await worker.ready;
    } catch (error) {
      this.discard(worker);
      throw error;
    }
    return worker;
  }

  release(worker: SandboxWorker): void {
    worker.listener = undefined;
    if (this.closed || !this.all.has(worker)) return;
    if (this.all.size > this.size) {
      this.retire(worker);
      return this.serveWaiters();
    }
    const next = this.waiting.shift();
    if (!next) this.idle.push(worker);
    else if (next.memoryPages === worker.memoryPages) next.give(worker);
    else {
      this.retire(worker);
      next.give(this.add(next.memoryPages));
    }
  }

  /** Ends a worker that must not run another program and starts its replacement (for the next waiter, if any). */
  discard(worker: SandboxWorker): void {
    worker.listener = undefined;
    if (!this.all.has(worker)) return;
    this.retire(worker);
    this.replaced += 1;
    if (this.closed) return;
    if (this.waiting.length > 0) this.serveWaiters();
    else if (this.all.size < this.size) this.idle.push(this.add(worker.memoryPages));
  }

  /** Starts workers for waiting programs while under the size. */
  private serveWaiters(): void {
    while (!this.closed && this.all.size < this.size && this.waiting.length > 0) {
      const next = this.waiting.shift() as Waiter;
      next.give(this.add(next.memoryPages));
    }
  }

  /** Heap of each idle worker, measured one after another. */
  async measureIdle(): Promise<number[]> {
    const heaps: number[] = [];
    for (const worker of [...this.idle]) {
      await worker.ready;
      heaps.push(await worker.measureHeap());
    }
    return heaps;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.waiting.splice(0)) entry.fail(new Error("codemode: sandbox is closed"));
    const workers = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  /**
   * An idle worker of the wanted memory size; else a new one while under the size; else an idle worker of
   * another size is replaced by one of this size. Workers that died while idle are replaced on the way.
   */
  private takeIdle(memoryPages: number): SandboxWorker | undefined {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const worker = this.idle[i];
      if (!worker.isAlive) {
        this.idle.splice(i, 1);
        this.discard(worker);
        return this.takeIdle(memoryPages);
      }
      if (worker.memoryPages === memoryPages) return this.idle.splice(i, 1)[0];
    }
    if (this.all.size < this.size) return this.add(memoryPages);
    const other = this.idle.shift();
    if (!other) return undefined;
    this.retire(other);
    return this.add(memoryPages);
  }

  private retire(worker: SandboxWorker): void {
    this.all.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    void worker.terminate();
  }

  private add(memoryPages: number): SandboxWorker {
    const worker = this.spawn(memoryPages);
    this.all.add(worker);
    return worker;
  }

  private wait(memoryPages: number, signal?: AbortSignal): Promise<SandboxWorker> {
    return new Promise((resolve, reject) => {
      const entry: Waiter = {
        memoryPages,
        give: (worker) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(worker);
        },
        fail: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(entry);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(entry);
    });
  }
}
