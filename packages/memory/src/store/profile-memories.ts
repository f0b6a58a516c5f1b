import { Bm25Index } from "../search/bm25-index.js";
import type { MemoryRecord, MemoryScope } from "./memory-record.js";

/**
 * Who is looking: a runtime of `profile` whose conversations are `channels` (`<platform>:<channelId>` keys), or
 * every channel of the profile (a `cross` runtime, an admin). A person's and the profile's memories are visible
 * in every channel of their profile; a channel's only in that channel (issue 24).
 */
export interface Viewer {
  profile: string;
  channels: ReadonlySet<string> | "all";
}

export function canSee(viewer: Viewer, record: MemoryRecord): boolean {
  if (record.profile !== viewer.profile) return false;
  return record.scope !== "channel" || viewer.channels === "all" || viewer.channels.has(record.subject);
}

const subjectKey = (scope: MemoryScope, subject: string): string => `${scope}\u0000${subject}`;

/** The text a memory is found by: its subject's name, then what it says. */
export const indexedText = (record: MemoryRecord): string => (record.label === "" ? record.text : `${record.label} ${record.text}`);

/** One profile's memories in memory: the rows, their BM25 index and a subject lookup for the instructions. */
export class ProfileMemories {
  public readonly records = new Map<number, MemoryRecord>();
  public readonly index = new Bm25Index();
  private readonly subjects = new Map<string, Set<number>>();
  private readonly counts: Record<MemoryScope, number> = { person: 0, channel: 0, profile: 0 };

  public constructor(public readonly profile: string) {}

  public put(record: MemoryRecord): void {
    const previous = this.records.get(record.id);
    if (previous) {
      this.subjects.get(subjectKey(previous.scope, previous.subject))?.delete(record.id);
      this.counts[previous.scope] -= 1;
    }
    this.counts[record.scope] += 1;
    this.records.set(record.id, record);
    const key = subjectKey(record.scope, record.subject);
    let ids = this.subjects.get(key);
    if (!ids) this.subjects.set(key, (ids = new Set()));
    ids.add(record.id);
    this.index.add(record.id, indexedText(record));
  }

  public delete(id: number): void {
    const record = this.records.get(id);
    if (!record) return;
    this.records.delete(id);
    this.counts[record.scope] -= 1;
    const key = subjectKey(record.scope, record.subject);
    const ids = this.subjects.get(key);
    ids?.delete(id);
    if (ids?.size === 0) this.subjects.delete(key);
    this.index.remove(id);
  }

  /** How many memories of `scope` the profile holds. */
  public count(scope: MemoryScope): number {
    return this.counts[scope];
  }

  /** A subject's memories, newest first. */
  public about(scope: MemoryScope, subject: string): MemoryRecord[] {
    const ids = this.subjects.get(subjectKey(scope, subject));
    if (!ids) return [];
    return [...ids].map((id) => this.records.get(id)!).sort((a, b) => b.id - a.id);
  }
}
