import { isTerminalEvent, type AgentEvent } from "./event.js";

interface TurnBuffer {
  events: AgentEvent[];
  ended: boolean;
  /** Wakes the `run()` consumers waiting for the next event. */
  waiting: Set<() => void>;
  consumers: number;
}

/**
 * Per-turn event buffers for `run()` (AG-30, AG-31): a buffer exists from queueing to the terminal event, and
 * after that only while a `run()` consumer still holds it.
 */
export class TurnEventLog {
  private readonly buffers = new Map<string, TurnBuffer>();

  open(turnId: string): void {
    this.buffers.set(turnId, { events: [], ended: false, waiting: new Set(), consumers: 0 });
  }

  /** Records an event of a turn (`message.appended` excluded); the terminal event closes the buffer. */
  record(event: AgentEvent): void {
    if (event.type === "message.appended" || !("turnId" in event)) return;
    const buffer = this.buffers.get(event.turnId);
    if (!buffer || buffer.ended) return;
    buffer.events.push(event);
    if (isTerminalEvent(event)) {
      buffer.ended = true;
      if (buffer.consumers === 0) this.buffers.delete(event.turnId);
    }
    for (const wake of buffer.waiting) wake();
    buffer.waiting.clear();
  }

  /** The number of live buffers; diagnostics for AG-31. */
  get size(): number {
    return this.buffers.size;
  }

  /**
   * Attaches a consumer now (so nothing recorded from here on is missed) and yields the turn's events,
   * buffered first, ending after the terminal event. Leaving early releases the consumer.
   */
  follow(turnId: string): AsyncIterableIterator<AgentEvent> {
    const buffer = this.buffers.get(turnId);
    let index = 0;
    let released = buffer === undefined;
    if (buffer) buffer.consumers += 1;
    const release = (): IteratorReturnResult<undefined> => {
      if (!released && buffer) {
        released = true;
        buffer.consumers -= 1;
        if (buffer.ended && buffer.consumers === 0 && this.buffers.get(turnId) === buffer) this.buffers.delete(turnId);
      }
      return { done: true, value: undefined };
    };
    const iterator: AsyncIterableIterator<AgentEvent> = {
      async next() {
        if (released || !buffer) return release();
        while (index >= buffer.events.length) {
          if (buffer.ended) return release();
          await new Promise<void>((resolve) => buffer.waiting.add(resolve));
        }
        const event = buffer.events[index++];
        if (isTerminalEvent(event)) {
          // The terminal event is the last one: the consumer is done with the buffer once it has it.
          release();
        }
        return { done: false, value: event };
      },
      async return() {
        return release();
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }
}
