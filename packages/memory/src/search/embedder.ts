import { embed, embedMany } from "koishi-plugin-ishiki";
import type { Gateway } from "koishi-plugin-ishiki";
import type { MemoryRecord } from "../store/memory-record.js";
import type { MemoryStore } from "../store/memory-store.js";

/** Memories embedded per search at most, so one query never turns into an unbounded backfill. */
export const BACKFILL_PER_SEARCH = 256;

/**
 * Vectors through an embedding model of the gateway (AI SDK `embed`/`embedMany`), for hybrid ranking. Memory
 * vectors are stored on their rows, tagged with the model, and computed when a search first needs them; every
 * call's token usage goes to the usage table.
 */
export class Embedder {
  public constructor(
    private readonly gateway: Gateway,
    public readonly model: string,
    private readonly store: MemoryStore,
    private readonly profile: string,
  ) {}

  public async query(text: string, signal?: AbortSignal): Promise<number[]> {
    const result = await embed({ model: this.gateway.embeddingModel(this.model), value: text, abortSignal: signal, maxRetries: 0 });
    await this.record(result.usage?.tokens);
    return result.embedding;
  }

  /** Embeds up to BACKFILL_PER_SEARCH of `records` that have no vector under this model. */
  public async backfill(records: readonly MemoryRecord[], signal?: AbortSignal): Promise<void> {
    const missing = records.filter((record) => record.embedding === null || record.embeddingModel !== this.model).slice(0, BACKFILL_PER_SEARCH);
    if (missing.length === 0) return;
    const result = await embedMany({ model: this.gateway.embeddingModel(this.model), values: missing.map((record) => record.text), abortSignal: signal, maxRetries: 0 });
    await this.record(result.usage?.tokens);
    await Promise.all(missing.map((record, index) => this.store.setEmbedding(record, result.embeddings[index], this.model)));
  }

  private async record(tokens: number | undefined): Promise<void> {
    await this.store.recordUsage({ profile: this.profile, kind: "embed", model: this.model, inputTokens: tokens ?? 0, outputTokens: 0 });
  }
}

export function cosine(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    dot += left[index] * right[index];
    leftNorm += left[index] * left[index];
    rightNorm += right[index] * right[index];
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}
