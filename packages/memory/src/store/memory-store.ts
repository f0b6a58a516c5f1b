import type { Context } from "koishi";
import type { MemoryDraft, MemoryRecord, MemoryScope } from "./memory-record.js";
import { ProfileMemories } from "./profile-memories.js";
import { MEMORY_TABLE, USAGE_TABLE, type MemoryUsageRecord } from "./tables.js";

export interface MemoryQuery {
  profile?: string;
  scope?: MemoryScope;
  subject?: string;
}

/**
 * The memories on Koishi's database, plus one in-memory copy per profile (rows and BM25 index) loaded on first
 * use. Every write goes through here, so the copies stay exact while this process is the only writer; a second
 * Koishi process writing the same tables is seen after a restart.
 */
export class MemoryStore {
  private readonly profiles = new Map<string, Promise<ProfileMemories>>();

  public constructor(private readonly ctx: Context) {}

  /** The profile's memories, loaded from the database once. */
  public profile(profile: string): Promise<ProfileMemories> {
    let loading = this.profiles.get(profile);
    if (!loading) {
      loading = this.load(profile);
      this.profiles.set(profile, loading);
      loading.catch(() => this.profiles.delete(profile));
    }
    return loading;
  }

  /** Drops a profile's in-memory copy (its activation ended); the rows stay. */
  public release(profile: string): void {
    this.profiles.delete(profile);
  }

  public async save(draft: MemoryDraft): Promise<MemoryRecord> {
    const now = new Date();
    const record = await this.ctx.database.create(MEMORY_TABLE, { ...draft, createdAt: now, updatedAt: now, embedding: null, embeddingModel: "" });
    (await this.loaded(draft.profile))?.put(record);
    return record;
  }

  /** Replaces a memory's text (and source, label); its embedding is recomputed on demand. */
  public async revise(record: MemoryRecord, patch: Pick<MemoryRecord, "text" | "source" | "label">): Promise<MemoryRecord> {
    const updated: MemoryRecord = { ...record, ...patch, updatedAt: new Date(), embedding: null, embeddingModel: "" };
    await this.ctx.database.set(MEMORY_TABLE, { id: record.id }, { text: updated.text, source: updated.source, label: updated.label, updatedAt: updated.updatedAt, embedding: null, embeddingModel: "" });
    (await this.loaded(record.profile))?.put(updated);
    return updated;
  }

  public async forget(records: readonly MemoryRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.ctx.database.remove(MEMORY_TABLE, { id: records.map((record) => record.id) });
    for (const record of records) (await this.loaded(record.profile))?.delete(record.id);
  }

  public async setEmbedding(record: MemoryRecord, embedding: number[], model: string): Promise<void> {
    await this.ctx.database.set(MEMORY_TABLE, { id: record.id }, { embedding, embeddingModel: model });
    record.embedding = embedding;
    record.embeddingModel = model;
  }

  /** Rows straight from the database, oldest first: for commands, which span profiles. */
  public async query(query: MemoryQuery): Promise<MemoryRecord[]> {
    // An undefined key would match nothing rather than everything.
    const where = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
    const rows = await this.ctx.database.get(MEMORY_TABLE, where);
    return rows.sort((a, b) => a.id - b.id);
  }

  public async get(id: number): Promise<MemoryRecord | undefined> {
    const [row] = await this.ctx.database.get(MEMORY_TABLE, { id });
    return row;
  }

  public async recordUsage(usage: Omit<MemoryUsageRecord, "id" | "at">): Promise<void> {
    await this.ctx.database.create(USAGE_TABLE, { ...usage, at: new Date() });
  }

  /** Tokens (input + output) spent on `kind` by `profile` since `since`. */
  public async usageSince(profile: string, kind: MemoryUsageRecord["kind"], since: Date): Promise<number> {
    const rows = await this.ctx.database.get(USAGE_TABLE, { profile, kind, at: { $gte: since } });
    return rows.reduce((sum, row) => sum + row.inputTokens + row.outputTokens, 0);
  }

  private async loaded(profile: string): Promise<ProfileMemories | undefined> {
    return this.profiles.get(profile)?.catch(() => undefined);
  }

  private async load(profile: string): Promise<ProfileMemories> {
    const memories = new ProfileMemories(profile);
    for (const row of await this.ctx.database.get(MEMORY_TABLE, { profile })) memories.put(row);
    return memories;
  }
}
