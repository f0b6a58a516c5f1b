import type { Agent, AgentLogger } from "@yesimagent/core";

/**
 * The pending-hit rule (spec 06 EN-25), shared by the wakeup engines and `wait`. A hit while the agent is idle
 * wakes at once. A hit while it is busy records the fact's `seq`; a `turn.step` that saw it (`seenSeq ≥ seq`)
 * clears it, a `turn.failed` or `turn.aborted` drops it, and if it is still pending once the agent is idle
 * (awaited in a detached task, never inside a channel listener) the wake fires.
 */
export class PendingWake {
  private pending: number | undefined;
  private waiting = false;
  private readonly abort = new AbortController();
  private readonly unsubscribe: () => void;

  /** `open` opens the turn (`agent.continue()` or `continue(prompt)`); it runs at most once per hit. */
  public constructor(
    private readonly agent: Agent,
    private readonly open: () => void,
    private readonly logger?: AgentLogger,
  ) {
    this.unsubscribe = agent.channel.subscribe("agent", (event) => {
      if (this.pending === undefined) return;
      if (event.type === "turn.step" && event.seenSeq >= this.pending) this.pending = undefined;
      else if (event.type === "turn.failed" || event.type === "turn.aborted") this.pending = undefined;
    });
  }

  /** Records a hit on the fact stored at `seq`. */
  public hit(seq: number): void {
    if (this.abort.signal.aborted) return;
    if (this.agent.isIdle()) {
      this.pending = undefined;
      this.fire();
      return;
    }
    this.pending = Math.max(this.pending ?? 0, seq);
    if (this.waiting) return;
    this.waiting = true;
    void this.settle();
  }

  /** Cancels the pending hit and stops listening; used by the owner's disposer. */
  public dispose(): void {
    this.abort.abort();
    this.pending = undefined;
    this.unsubscribe();
  }

  private async settle(): Promise<void> {
    try {
      while (this.pending !== undefined) {
        await this.agent.wait({ signal: this.abort.signal });
        if (this.pending === undefined) return;
        // Another party may have opened a turn between the idle signal and this task: wait for that one too.
        if (!this.agent.isIdle()) continue;
        this.pending = undefined;
        this.fire();
      }
    } catch (error) {
      if (!this.abort.signal.aborted) this.logger?.warn(`pending wake failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.waiting = false;
    }
  }

  private fire(): void {
    try {
      this.open();
    } catch (error) {
      this.logger?.warn(`wake failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
