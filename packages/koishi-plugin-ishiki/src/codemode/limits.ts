/** Execution limits of one codemode program (spec 05 CT-12); byte limits count raw bytes. */
export interface CodemodeLimits {
  /** Interrupt deadline; the worker is replaced at `timeoutMs + 1000` if the guest does not stop. */
  readonly timeoutMs: number;
  /** QuickJS heap limit; each worker's WebAssembly memory is fixed at this plus a host headroom. */
  readonly memoryLimitBytes: number;
  readonly maxToolInputBytes: number;
  readonly maxToolOutputBytes: number;
  readonly maxResultBytes: number;
  readonly maxStackBytes: number;
  readonly maxConsoleBytes: number;
  readonly maxToolCalls: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_CODEMODE_LIMITS: CodemodeLimits = Object.freeze({
  timeoutMs: 30_000,
  memoryLimitBytes: 256 * MiB,
  maxToolInputBytes: 32 * MiB,
  maxToolOutputBytes: 32 * MiB,
  maxResultBytes: 32 * MiB,
  maxStackBytes: 1 * MiB,
  maxConsoleBytes: 64 * 1024,
  maxToolCalls: 1000,
});

/** Smallest values that still leave QuickJS room to start a runtime and report its own errors. */
const MINIMUM: Partial<Record<keyof CodemodeLimits, number>> = {
  memoryLimitBytes: 8 * MiB,
  maxStackBytes: 64 * 1024,
};

/** Fills defaults and rejects values that are not integers at or above their minimum (1 unless stated). */
export function resolveCodemodeLimits(overrides: Partial<CodemodeLimits> = {}): CodemodeLimits {
  const limits = { ...DEFAULT_CODEMODE_LIMITS, ...overrides };
  for (const key of Object.keys(DEFAULT_CODEMODE_LIMITS) as (keyof CodemodeLimits)[]) {
    const value = limits[key];
    const minimum = MINIMUM[key] ?? 1;
    if (!Number.isSafeInteger(value) || value < minimum) {
      throw new RangeError(`codemode: ${key} must be an integer >= ${minimum}; got ${String(value)}`);
    }
  }
  return Object.freeze(limits);
}
