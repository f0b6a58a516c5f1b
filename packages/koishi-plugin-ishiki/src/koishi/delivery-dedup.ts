const WINDOW_MS = 10 * 60_000;
const CAPACITY = 10_000;

/**
 * Drops a repeated `(platform, selfId, channelId, messageId)` seen within 10 minutes (spec 08 KP-28); adapters
 * redeliver on reconnects. A bounded LRU: the oldest keys go first.
 */
export class DeliveryDedup {
  private readonly seen = new Map<string, number>();

  /** True the first time a message is seen in the window; false for a repeat. */
  public admit(platform: string, selfId: string, channelId: string, messageId: string, now = Date.now()): boolean {
    const key = `${platform}\u0000${selfId}\u0000${channelId}\u0000${messageId}`;
    const last = this.seen.get(key);
    if (last !== undefined && now - last < WINDOW_MS) return false;
    this.seen.delete(key);
    this.seen.set(key, now);
    if (this.seen.size > CAPACITY) this.seen.delete(this.seen.keys().next().value as string);
    return true;
  }
}
