import type { AgentCustomEvent } from "./event.js";
import { silentLogger, type AgentLogger } from "./logger.js";

export type AgentChannelName = Extract<keyof AgentCustomEvent, string>;

export type AgentChannelListener<K extends AgentChannelName> = (payload: AgentCustomEvent[K]) => unknown;

/** (decided here, AG-32) A listener still running after this long is logged at warn. */
export const SLOW_LISTENER_MS = 5_000;

/**
 * The agent's typed pub-sub (AG-32). `emit` runs a channel's listeners concurrently and resolves when all of
 * them have settled, so a slow listener stalls whoever awaits the emit (the turn loop does): do slow work
 * outside the callback. Listener errors are logged and swallowed. `publish` is the fire-and-forget variant
 * used for the `"stream"` channel (AG-35).
 */
export class AgentChannel {
  private readonly listeners = new Map<string, Set<(payload: never) => unknown>>();

  constructor(private readonly logger: AgentLogger = silentLogger) {}

  /** Registers `listener` on `name`; the returned function unsubscribes it. */
  subscribe<K extends AgentChannelName>(name: K, listener: AgentChannelListener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    const entry = listener as (payload: never) => unknown;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  async emit<K extends AgentChannelName>(name: K, payload: AgentCustomEvent[K]): Promise<void> {
    const set = this.listeners.get(name);
    if (!set || set.size === 0) return;
    const running = [...set].map((listener) => this.call(name, listener, payload));
    const timer = setTimeout(() => this.logger.warn(`channel ${name}: a listener is still running after ${SLOW_LISTENER_MS} ms (${describe(payload)})`), SLOW_LISTENER_MS);
    timer.unref?.();
    try {
      await Promise.all(running);
    } finally {
      clearTimeout(timer);
    }
  }

  publish<K extends AgentChannelName>(name: K, payload: AgentCustomEvent[K]): void {
    const set = this.listeners.get(name);
    if (!set || set.size === 0) return;
    for (const listener of set) void this.call(name, listener, payload);
  }

  private async call(name: string, listener: (payload: never) => unknown, payload: unknown): Promise<void> {
    try {
      await listener(payload as never);
    } catch (error) {
      this.logger.warn(`channel ${name}: listener failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function describe(payload: unknown): string {
  const type = typeof payload === "object" && payload !== null ? (payload as { type?: unknown }).type : undefined;
  return typeof type === "string" ? type : "event";
}
