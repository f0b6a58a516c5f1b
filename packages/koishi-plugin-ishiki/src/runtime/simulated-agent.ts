import { AgentChannel, type Agent, type AgentMessage, type AgentState } from "@yesimagent/core";
import type { LanguageModel } from "ai";

/** A turn the simulated agent ran: when, and the newest fact it saw. */
export interface SimulatedTurn {
  at: number;
  seenSeq: number;
}

/**
 * The agent a wakeup engine is attached to in a policy preview (issue 22): it stores nothing and calls no
 * model. `continue()` queues a turn as the real agent does (a busy agent merges it into one pending wake); the
 * preview runs queued turns with `drain()`, each taking no virtual time: `turn.start`, one `turn.step` that saw
 * every fact delivered so far, `turn.done`. Anything else an engine could ask of an agent throws, so a preview
 * never pretends to have done real work.
 */
export class SimulatedAgent implements Agent {
  public readonly id: string;
  public readonly channel = new AgentChannel();
  public readonly turns: SimulatedTurn[] = [];
  private lastSeq = 0;
  private queued = false;
  private running = false;
  private pendingWake = false;
  private waiters: Array<() => void> = [];
  private counter = 0;
  private snapshot: AgentState = { version: 1 };

  public constructor(
    id: string,
    private readonly now: () => number,
  ) {
    this.id = id;
  }

  public readonly storage = {
    read: async () => [],
    append: async () => {},
    clear: async () => {},
  };

  public readonly state = {
    get: (): AgentState => structuredClone(this.snapshot),
    set: async (next: AgentState | ((current: AgentState) => AgentState)) => {
      this.snapshot = structuredClone(typeof next === "function" ? next(structuredClone(this.snapshot)) : next);
    },
    update: async (patch: Partial<AgentState>) => {
      this.snapshot = { ...this.snapshot, ...patch };
    },
    restore: (snapshot: AgentState) => {
      this.snapshot = structuredClone(snapshot);
    },
  };

  /** Appends a recorded fact at its original `seq`; resolves once every engine listener ran. */
  public async deliver(message: AgentMessage, entryId: string, seq: number): Promise<void> {
    this.lastSeq = Math.max(this.lastSeq, seq);
    await this.channel.emit("agent", { type: "message.appended", message, entryId, seq });
  }

  public continue(): string | undefined {
    if (!this.isIdle()) {
      this.pendingWake = true;
      return undefined;
    }
    this.queued = true;
    return `preview-turn-${this.counter + 1}`;
  }

  public isIdle(): boolean {
    return !this.queued && !this.running && !this.pendingWake;
  }

  /** Whether a turn waits to run. */
  public get hasQueuedTurn(): boolean {
    return this.queued || this.pendingWake;
  }

  /** Runs the queued turn and a pending wake behind it, then wakes every `wait()`. */
  public async runQueued(): Promise<void> {
    while (this.queued || this.pendingWake) {
      this.queued = false;
      this.pendingWake = false;
      this.running = true;
      const turnId = `preview-turn-${(this.counter += 1)}`;
      this.turns.push({ at: this.now(), seenSeq: this.lastSeq });
      await this.channel.emit("agent", { type: "turn.start", turnId });
      await this.channel.emit("agent", { type: "turn.step", turnId, stepNumber: 0, seenSeq: this.lastSeq });
      this.running = false;
      await this.channel.emit("agent", { type: "turn.done", turnId, steps: 1 });
    }
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  public wait(options?: { signal?: AbortSignal }): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push(resolve);
      options?.signal?.addEventListener("abort", () => reject(options.signal?.reason), { once: true });
    });
  }

  public async init(): Promise<void> {}
  public async stop(): Promise<void> {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  public getActiveTurnId(): string | null {
    return null;
  }

  public send(): string | undefined {
    throw new Error("a policy preview replays recorded facts only");
  }

  public run(): AsyncIterableIterator<never> {
    throw new Error("a policy preview runs no turns");
  }

  public async interrupt(): Promise<void> {}

  public getModel(): LanguageModel {
    throw new Error("a policy preview calls no model");
  }

  public setModel(): void {
    throw new Error("a policy preview calls no model");
  }

  public async clear(): Promise<void> {
    throw new Error("a policy preview never clears a stream");
  }
}
