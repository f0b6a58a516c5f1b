import type { SandboxWorker } from "./sandbox-worker.js";

/**
 * At most `size` workers; a program takes an idle one, starts one while under the size, or waits in order.
 * A worker that cannot be trusted again is discarded and replaced at once, so the next program finds it warm.
 */
export class WorkerPool {
  private readonly idle: SandboxWorker[] = [];
  private readonly all = new Set<SandboxWorker>();
  private readonly waiting: { give(worker: SandboxWorker): void; fail(error: Error): void }[] = [];
  private closed = false;
  replaced = 0;

  constructor(
    private readonly spawn: () => SandboxWorker,
    private readonly size: number,
  ) {}

  get workers(): number {
    return this.all.size;
  }

  get busy(): number {
    return this.all.size - this.idle.length;
  }

  async acquire(signal?: AbortSignal): Promise<SandboxWorker> {
    if (this.closed) throw new Error("codemode: sandbox is closed");
    const worker = this.takeIdle() ?? (this.all.size < this.size ? this.add() : await this.wait(signal));
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
    const next = this.waiting.shift();
    if (next) next.give(worker);
    else this.idle.push(worker);
  }

  discard(worker: SandboxWorker): void {
    worker.listener = undefined;
    if (!this.all.delete(worker)) return;
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    void worker.terminate();
    this.replaced += 1;
    if (this.closed) return;
    const replacement = this.add();
    const next = this.waiting.shift();
    if (next) next.give(replacement);
    else this.idle.push(replacement);
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

  /** An idle worker whose thread is still alive; one that died while idle is replaced. */
  private takeIdle(): SandboxWorker | undefined {
    for (let worker = this.idle.pop(); worker; worker = this.idle.pop()) {
      if (worker.isAlive) return worker;
      this.discard(worker);
    }
    return undefined;
  }

  private add(): SandboxWorker {
    const worker = this.spawn();
    this.all.add(worker);
    return worker;
  }

  private wait(signal?: AbortSignal): Promise<SandboxWorker> {
    return new Promise((resolve, reject) => {
      const entry = {
        give: (worker: SandboxWorker) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(worker);
        },
        fail: (error: Error) => {
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
