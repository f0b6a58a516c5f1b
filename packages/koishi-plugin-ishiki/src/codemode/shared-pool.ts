import { availableParallelism } from "node:os";
import { SandboxWorker } from "./sandbox-worker.js";
import { WorkerPool } from "./worker-pool.js";
import { workerScript } from "./worker-source.js";

/** Default number of codemode workers in a process: one per core, at least 1 and at most 4. */
export function defaultCodemodeWorkers(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

export function spawnWorker(memoryPages: number): SandboxWorker {
  return new SandboxWorker(workerScript(), memoryPages);
}

let size = defaultCodemodeWorkers();
let shared: { readonly pool: WorkerPool; leases: number } | undefined;

function checkSize(value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`codemode: workers must be an integer >= 1; got ${String(value)}`);
  return value;
}

/**
 * Sets the size of the process's codemode worker pool (plugin config `codemodeWorkers`), shared by every
 * runtime and profile (issue 19). A running pool is resized in place. The disposer restores the default.
 */
export function configureCodemodeWorkers(workers: number): () => void {
  size = checkSize(workers);
  shared?.pool.resize(size);
  return () => {
    size = defaultCodemodeWorkers();
    shared?.pool.resize(size);
  };
}

/**
 * A lease on the process's shared pool, started on first lease; the pool's threads end when the last lease
 * is returned (the last runtime with codemode stops), so an idle plugin holds no threads.
 */
export function leaseSharedPool(): { readonly pool: WorkerPool; release(): Promise<void> } {
  const entry = (shared ??= { pool: new WorkerPool(spawnWorker, size), leases: 0 });
  entry.leases += 1;
  let released = false;
  return {
    pool: entry.pool,
    async release() {
      if (released) return;
      released = true;
      entry.leases -= 1;
      if (entry.leases > 0 || shared !== entry) return;
      shared = undefined;
      await entry.pool.close();
    },
  };
}
