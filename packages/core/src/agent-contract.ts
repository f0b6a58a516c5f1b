import type { LanguageModel } from "ai";
import type { AgentChannel } from "./channel.js";
import type { AgentEvent } from "./event.js";
import type { AgentMessage } from "./message.js";
import type { AgentStateStore } from "./state.js";
import type { AgentStorage } from "./storage.js";
import type { AgentSendOptions, AgentWaitOptions } from "./turn.js";

/**
 * The handle of one agent (AG-16). One turn runs at a time; turns queue FIFO.
 *
 * Subscribe to `channel` before the first `send`: events are not replayed. Channel listeners are awaited by
 * the turn loop, so never await `wait()` or a turn's end inside one: start that work detached.
 */
export interface Agent {
  readonly id: string;
  readonly channel: AgentChannel;
  /** Ordered access to the fact stream; direct appends skip `onAppend` and `message.appended` (AG-11). */
  readonly storage: AgentStorage;
  readonly state: AgentStateStore;
  /** Reads history, restores state and runs the plugins' `init`; lazy, shared, retried after failure (AG-50). */
  init(): Promise<void>;
  /**
   * Interrupts, stops the plugins in reverse order and emits `agent.stop` (AG-28). Afterwards `send`, `run` and
   * `continue` throw `AgentRuntimeError` until a new `init()` succeeds.
   */
  stop(): Promise<void>;
  /** Submits a message per the decision table of AG-18; returns the turn it joined or queued, if any. */
  send(message: AgentMessage, options?: AgentSendOptions): string | undefined;
  /** Sends with `trigger: true` and yields that turn's events up to its terminal event (AG-30). */
  run(message: AgentMessage, options?: Omit<AgentSendOptions, "trigger">): AsyncIterableIterator<AgentEvent>;
  /** Opens a turn when idle, else merges into the single pending wake (AG-23 .. AG-25). */
  continue(prompt?: string): string | undefined;
  /** Resolves when idle with no background write in flight (AG-29). */
  wait(options?: AgentWaitOptions): Promise<void>;
  /** Drops queued turns and the pending wake, aborts the active turn and awaits its end (AG-27). */
  interrupt(reason?: string): Promise<void>;
  isIdle(): boolean;
  /** The active turn while it accepts messages, else `null`. */
  getActiveTurnId(): string | null;
  getModel(): LanguageModel;
  /** Takes effect at the next model call. */
  setModel(model: LanguageModel): void;
  /** Deletes the stored stream and empties the history in memory; state and message dedup stay (AG-12). */
  clear(): Promise<void>;
}
