import type { ToolSet } from "ai";
import type { AgentMessage } from "./message.js";

/** One queued or running turn and the messages waiting for it (AG-18, AG-37). */
export class ActiveTurn {
  readonly id = crypto.randomUUID();
  readonly controller = new AbortController();
  /** True from the moment the turn becomes active until its step loop has ended and it sealed. */
  accepting = false;
  /** Persisted at step 0. */
  incoming: AgentMessage[];
  /** Persisted after the current step's batch and seen by the next step. */
  readonly joined: AgentMessage[] = [];
  /** Persisted at the turn's tail, seen by no step of it. */
  readonly deferred: AgentMessage[] = [];
  /** Every message this turn persisted, for `TurnResult.messages`. */
  readonly persisted: AgentMessage[] = [];
  abortReason: string | undefined;
  /** The `turn.queued` delivery, awaited before `turn.start` so the channel sees them in order (AG-22). */
  queued: Promise<void> = Promise.resolve();
  /** Assembled at step 0 (AG-39). */
  instructions: string | undefined;
  tools: ToolSet = {};
  runtimeContext: Record<string, unknown>;
  toolsContext: Record<string, unknown>;
  private settle!: () => void;
  /** Resolves once the turn ended: terminal event delivered and `onTurnFinish` run. */
  readonly finished = new Promise<void>((resolve) => (this.settle = resolve));

  constructor(incoming: AgentMessage[], runtimeContext: Record<string, unknown>, toolsContext: Record<string, unknown>) {
    this.incoming = incoming;
    this.runtimeContext = runtimeContext;
    this.toolsContext = toolsContext;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: string | undefined, error: unknown): void {
    this.abortReason = reason;
    this.controller.abort(error);
  }

  finish(): void {
    this.settle();
  }
}
