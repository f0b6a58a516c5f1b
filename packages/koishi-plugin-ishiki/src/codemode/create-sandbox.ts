import { compileProgram } from "./compile.js";
import { codemodeErrors } from "./error-text.js";
import { MAX_PROGRAM_LENGTH } from "./input-schema.js";
import { resolveCodemodeLimits } from "./limits.js";
import { runSession } from "./run-session.js";
import type { CodemodeSandbox, CodemodeSandboxOptions } from "./sandbox.js";
import { leaseSharedPool, spawnWorker } from "./shared-pool.js";
import { WorkerPool } from "./worker-pool.js";

const PAGE_BYTES = 64 * 1024;
/** Room above the QuickJS heap limit for the module's own data and strings copied in and out of the guest. */
const MEMORY_HEADROOM_BYTES = 64 * 1024 * 1024;
/** Run ids tag a worker's messages; sandboxes share workers, so the counter is the process's. */
let nextRunId = 0;

/**
 * Creates a codemode sandbox (spec 05 CT-7..CT-18). Programs run on the process's shared worker pool
 * (`configureCodemodeWorkers`), or on a private pool of `poolSize` workers when that option is given.
 */
export function createCodemodeSandbox(options: CodemodeSandboxOptions = {}): CodemodeSandbox {
  const limits = resolveCodemodeLimits(options.limits);
  const poolSize = options.poolSize;
  if (poolSize !== undefined && (!Number.isSafeInteger(poolSize) || poolSize < 1)) {
    throw new RangeError(`codemode: poolSize must be an integer >= 1; got ${String(poolSize)}`);
  }
  const memoryPages = Math.ceil((limits.memoryLimitBytes + MEMORY_HEADROOM_BYTES) / PAGE_BYTES);
  const pool = poolSize === undefined ? undefined : new WorkerPool(spawnWorker, poolSize);
  const lease = pool ? { pool, release: () => pool.close() } : leaseSharedPool();
  let closed = false;

  return {
    limits,
    async run(request) {
      if (closed) throw new Error("codemode: sandbox is closed");
      request.signal?.throwIfAborted();
      const length = request.js.length;
      if (length < 1 || length > MAX_PROGRAM_LENGTH) {
        return { ok: false, error: codemodeErrors.programLength(length, MAX_PROGRAM_LENGTH), console: [] };
      }
      const program = await compileProgram(request.js);
      if (!program.ok) return { ok: false, error: program.error, console: [] };
      request.signal?.throwIfAborted();
      const worker = await lease.pool.acquire(memoryPages, request.signal);
      return runSession(worker, {
        runId: ++nextRunId,
        code: program.code,
        lines: program.lines,
        limits,
        request,
        release: (reusable) => (reusable ? lease.pool.release(worker) : lease.pool.discard(worker)),
      });
    },
    stats: () => ({ workers: lease.pool.workers, busy: lease.pool.busy, replaced: lease.pool.replaced, size: lease.pool.limit }),
    measureWorkerHeaps: () => lease.pool.measureIdle(),
    close: () => {
      closed = true;
      return lease.release();
    },
  };
}
