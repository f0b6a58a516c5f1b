import { ActiveTurn } from "./active-turn.js";
import { abortError } from "./error-info.js";
import type { AgentEvent } from "./event.js";
import type { AgentLogger } from "./logger.js";
import { createUserMessage, type AgentMessage } from "./message.js";
import type { AgentWaitOptions } from "./turn.js";

export interface TurnSchedulerOptions {
  logger: AgentLogger;
  emit(event: AgentEvent): Promise<void>;
  /** Creates a turn (its event buffer included) for the given incoming messages. */
  createTurn(incoming: AgentMessage[]): ActiveTurn;
  /** Runs a turn to its end; never throws. */
  runTurn(turn: ActiveTurn): Promise<unknown>;
  /** Persists one message outside any turn; rejects on failure. */
  persist(message: AgentMessage): Promise<unknown>;
}

interface IdleWaiter {
  resolve(): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * The agent's work queue (AG-21 .. AG-29): one active turn, a FIFO of queued turns, the single pending wake,
 * tracked background writes and idle waiters.
 */
export class TurnScheduler {
  private readonly queue: ActiveTurn[] = [];
  private active: ActiveTurn | undefined;
  private pumping = false;
  private pendingWake: string[] | undefined;
  private readonly backgroundWrites = new Set<Promise<void>>();
  private readonly waiters = new Set<IdleWaiter>();

  constructor(private readonly options: TurnSchedulerOptions) {}

  /** No active turn, no queued turn, no running pump, no pending wake; background writes do not count. */
  isIdle(): boolean {
    return this.active === undefined && this.queue.length === 0 && !this.pumping && this.pendingWake === undefined;
  }

  /** The active turn while its step loop runs (AG-18 "accepting"). */
  accepting(): ActiveTurn | undefined {
    return this.active?.accepting ? this.active : undefined;
  }

  /** Queues a turn and starts the pump synchronously, so the agent is not idle when this returns (AG-22). */
  enqueue(incoming: AgentMessage[]): ActiveTurn {
    const turn = this.options.createTurn(incoming);
    this.queue.push(turn);
    turn.queued = this.options.emit({ type: "turn.queued", turnId: turn.id });
    if (!this.pumping) {
      this.pumping = true;
      void this.pump();
    }
    return turn;
  }

  /** Merges a prompt (or none) into the single pending wake (AG-24). */
  mergeWake(prompt: string | undefined): void {
    this.pendingWake ??= [];
    if (prompt !== undefined) this.pendingWake.push(prompt);
  }

  /** Persists a message now, tracked for `wait()`; a failure is logged and emitted, never thrown (AG-21). */
  writeInBackground(message: AgentMessage): void {
    const write: Promise<void> = this.options
      .persist(message)
      .then(
        () => undefined,
        async (error: unknown) => {
          // Names the message: it is lost, and the log line is all that is left of it.
          const kind = message.role === "custom" ? message.type : message.role;
          const text = `background write of ${kind} message ${message.id} failed: ${error instanceof Error ? error.message : String(error)}`;
          this.options.logger.warn(text);
          await this.options.emit({ type: "agent.error", source: "background-write", message: text });
        },
      )
      .finally(() => {
        this.backgroundWrites.delete(write);
        this.settleWaiters();
      });
    this.backgroundWrites.add(write);
  }

  /**
   * Detaches every queued turn and the pending wake, aborts the active turn and awaits its end, then
   * notifies idle waiters (AG-27). Dropped turns get a non-persisted `turn.aborted { dropped: true }`.
   */
  async interrupt(reason?: string): Promise<void> {
    const dropped = this.queue.splice(0);
    this.pendingWake = undefined;
    const current = this.active;
    current?.abort(reason, abortError(reason));
    for (const turn of dropped) {
      await this.options.emit({ type: "turn.aborted", turnId: turn.id, ...(reason === undefined ? {} : { reason }), dropped: true });
      turn.finish();
    }
    if (current) await current.finished;
    this.settleWaiters();
  }

  /** Resolves when idle with no background write in flight (AG-29). */
  wait(options: AgentWaitOptions = {}): Promise<void> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.isIdle() && this.backgroundWrites.size === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: IdleWaiter = { resolve, signal };
      if (signal) {
        waiter.onAbort = () => {
          this.waiters.delete(waiter);
          reject(abortError());
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.waiters.add(waiter);
    });
  }

  private async pump(): Promise<void> {
    for (;;) {
      let next = this.queue.shift();
      if (next === undefined && this.pendingWake !== undefined) {
        // The pending wake fires only once the whole queue has drained (AG-24, AG-25).
        const prompt = this.pendingWake.join(";");
        this.pendingWake = undefined;
        this.enqueue(prompt === "" ? [] : [createUserMessage(prompt)]);
        next = this.queue.shift();
      }
      if (next === undefined) break;
      this.active = next;
      next.accepting = true;
      await next.queued;
      try {
        await this.options.runTurn(next);
      } catch (error) {
        this.options.logger.error(`turn ${next.id}: turn loop crashed: ${String(error)}`);
      }
      this.active = undefined;
      // Settled before `finished` resolves, so an awaited interrupt() returns to an idle agent.
      if (this.queue.length === 0 && this.pendingWake === undefined) this.pumping = false;
      next.finish();
      if (!this.pumping) break;
    }
    this.pumping = false;
    this.settleWaiters();
  }

  private settleWaiters(): void {
    if (!this.isIdle() || this.backgroundWrites.size > 0) return;
    for (const waiter of this.waiters) {
      if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.resolve();
    }
    this.waiters.clear();
  }
}
