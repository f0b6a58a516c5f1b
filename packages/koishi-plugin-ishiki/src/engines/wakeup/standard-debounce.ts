import type { WakeupEnvironment } from "../wakeup-environment.js";

interface PendingChannel {
  seq: number;
  quiet?: () => void;
  max?: () => void;
}

/**
 * Per-channel debounce of wake hits (spec 06 EN-27, EN-30): a channel with a pending hit fires once `quietMs`
 * pass without a new fact in it, or `maxMs` after its first pending hit, whichever comes first; hits merge into
 * one firing carrying the newest hit's `seq`. `quietMs` 0 fires at once; `maxMs` 0 leaves only the quiet timer.
 * Timers run on the engine's clock (real, or a preview's virtual one).
 */
export class WakeDebounce {
  private readonly pending = new Map<string, PendingChannel>();

  public constructor(
    private readonly quietMs: number,
    private readonly maxMs: number,
    private readonly fire: (seq: number, key: string) => void,
    private readonly onError: (error: unknown) => void,
    private readonly setTimer: WakeupEnvironment["setTimer"],
  ) {}

  /** A fact arrived in `key`: it restarts the quiet period of a pending hit there. */
  public fact(key: string): void {
    const channel = this.pending.get(key);
    if (channel !== undefined) this.restartQuiet(key, channel);
  }

  public hit(key: string, seq: number): void {
    if (this.quietMs <= 0) {
      this.fire(seq, key);
      return;
    }
    let channel = this.pending.get(key);
    if (channel === undefined) {
      channel = { seq };
      this.pending.set(key, channel);
      if (this.maxMs > 0) channel.max = this.setTimer(this.maxMs, () => this.flush(key), this.onError);
    }
    channel.seq = Math.max(channel.seq, seq);
    this.restartQuiet(key, channel);
  }

  /** Whether a hit waits for its channel to go quiet. */
  public get waiting(): boolean {
    return this.pending.size > 0;
  }

  public dispose(): void {
    for (const channel of this.pending.values()) {
      channel.quiet?.();
      channel.max?.();
    }
    this.pending.clear();
  }

  private restartQuiet(key: string, channel: PendingChannel): void {
    channel.quiet?.();
    channel.quiet = this.setTimer(this.quietMs, () => this.flush(key), this.onError);
  }

  private flush(key: string): void {
    const channel = this.pending.get(key);
    if (channel === undefined) return;
    this.pending.delete(key);
    channel.quiet?.();
    channel.max?.();
    this.fire(channel.seq, key);
  }
}
