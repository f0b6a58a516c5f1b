/**
 * A timer that never keeps the process alive (spec 06 EN-23: engines' timers end with the runtime, and an idle
 * bot must not hold Node open). Errors thrown by `run` go to `onError` instead of becoming uncaught.
 */
export function unrefTimer(ms: number, run: () => void, onError: (error: unknown) => void): NodeJS.Timeout {
  const timer = setTimeout(() => {
    try {
      run();
    } catch (error) {
      onError(error);
    }
  }, Math.max(0, ms));
  timer.unref();
  return timer;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
