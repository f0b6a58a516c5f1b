import { compileProgram } from "./compile.js";
import { codemodeErrors } from "./error-text.js";
import { MAX_PROGRAM_LENGTH } from "./input-schema.js";
import { resolveCodemodeLimits } from "./limits.js";
import { runSession } from "./run-session.js";
import type { CodemodeSandbox, CodemodeSandboxOptions } from "./sandbox.js";
import { SandboxWorker } from "./sandbox-worker.js";
import { WorkerPool } from "./worker-pool.js";
import { workerScript } from "./worker-source.js";

const PAGE_BYTES = 64 * 1024;
/** Room above the QuickJS heap limit for the module's own data and strings copied in and out of the guest. */
const MEMORY_HEADROOM_BYTES = 64 * 1024 * 1024;

/** Creates a codemode sandbox: a pool of QuickJS worker threads, started on first use (spec 05 CT-7..CT-18). */
export function createCodemodeSandbox(options: CodemodeSandboxOptions = {}): CodemodeSandbox {
  const limits = resolveCodemodeLimits(options.limits);
  const poolSize = options.poolSize ?? 2;
  if (!Number.isSafeInteger(poolSize) || poolSize < 1) {
    throw new RangeError(`codemode: poolSize must be an integer >= 1; got ${String(poolSize)}`);
  }
  const memoryPages = Math.ceil((limits.memoryLimitBytes + MEMORY_HEADROOM_BYTES) / PAGE_BYTES);
  const pool = new WorkerPool(() => new SandboxWorker(workerScript(), memoryPages, limits), poolSize);
  let nextRunId = 0;

  return {
    limits,
    async run(request) {
      request.signal?.throwIfAborted();
      const length = request.js.length;
      if (length < 1 || length > MAX_PROGRAM_LENGTH) {
        return { ok: false, error: codemodeErrors.programLength(length, MAX_PROGRAM_LENGTH), console: [] };
      }
      const program = await compileProgram(request.js);
      if (!program.ok) return { ok: false, error: program.error, console: [] };
      request.signal?.throwIfAborted();
      const worker = await pool.acquire(request.signal);
      return runSession(worker, {
        runId: ++nextRunId,
        code: program.code,
        lines: program.lines,
        limits,
        request,
        release: (reusable) => (reusable ? pool.release(worker) : pool.discard(worker)),
      });
    },
    stats: () => ({ workers: pool.workers, busy: pool.busy, replaced: pool.replaced }),
    measureWorkerHeaps: () => pool.measureIdle(),
    close: () => pool.close(),
  };
}
