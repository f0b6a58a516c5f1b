/** Total bytes the process keeps cached across all runtimes (RS-26). */
export const BYTE_CACHE_LIMIT = 128 * 1024 * 1024;

/**
 * A least-recently-used byte cache shared by every runtime of the process, bounded by total size. Keys are
 * grouped by owner (one runtime's store) so a stopped runtime drops all of its bytes at once.
 */
export class ByteCache {
  private readonly entries = new Map<string, { owner: string; bytes: Uint8Array }>();
  private total = 0;

  public constructor(public readonly limit: number = BYTE_CACHE_LIMIT) {}

  public get size(): number {
    return this.total;
  }

  public get(owner: string, key: string): Uint8Array | undefined {
    const id = `${owner}\n${key}`;
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.bytes;
  }

  public set(owner: string, key: string, bytes: Uint8Array): void {
    const id = `${owner}\n${key}`;
    this.remove(id);
    if (bytes.length > this.limit) return;
    this.entries.set(id, { owner, bytes });
    this.total += bytes.length;
    for (const [oldest] of this.entries) {
      if (this.total <= this.limit) break;
      this.remove(oldest);
    }
  }

  public dropOwner(owner: string): void {
    for (const [id, entry] of this.entries) if (entry.owner === owner) this.remove(id);
  }

  public ownerBytes(owner: string): number {
    let sum = 0;
    for (const entry of this.entries.values()) if (entry.owner === owner) sum += entry.bytes.length;
    return sum;
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.total -= entry.bytes.length;
  }
}

/** The process-wide cache. */
export const sharedByteCache = new ByteCache();
