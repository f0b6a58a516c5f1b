interface VirtualTimer {
  due: number;
  order: number;
  run(): void;
  onError(error: unknown): void;
}

/**
 * The clock of a policy preview (issue 22): time moves only when the preview says so, and timers fire in due
 * order (ties in the order they were set), each at its own instant, so a week of chat replays in moments.
 */
export class VirtualClock {
  private current: number;
  private order = 0;
  private readonly timers = new Set<VirtualTimer>();

  public constructor(start: number) {
    this.current = start;
  }

  public now(): number {
    return this.current;
  }

  public setTimer(ms: number, run: () => void, onError: (error: unknown) => void): () => void {
    const timer: VirtualTimer = { due: this.current + Math.max(0, ms), order: this.order++, run, onError };
    this.timers.add(timer);
    return () => void this.timers.delete(timer);
  }

  /** The earliest timer due at or before `until`, removed from the queue with the clock moved to it. */
  public takeDue(until: number): VirtualTimer | undefined {
    let next: VirtualTimer | undefined;
    for (const timer of this.timers) if (timer.due <= until && (next === undefined || timer.due < next.due || (timer.due === next.due && timer.order < next.order))) next = timer;
    if (next === undefined) return undefined;
    this.timers.delete(next);
    this.current = Math.max(this.current, next.due);
    return next;
  }

  /** Moves the clock to `at` (never backwards) once every timer due before it was taken. */
  public moveTo(at: number): void {
    this.current = Math.max(this.current, at);
  }

  public get pending(): number {
    return this.timers.size;
  }
}
