import type { MemoryRecord, MemoryScope } from "../store/memory-record.js";
import { canSee, type ProfileMemories, type Viewer } from "../store/profile-memories.js";
import { cosine, type Embedder } from "./embedder.js";

export interface SearchRequest {
  query: string;
  limit: number;
  scope?: MemoryScope;
  subject?: string;
}

export interface SearchHit {
  record: MemoryRecord;
  score: number;
}

export interface SearchOutcome {
  hits: SearchHit[];
  ranking: "bm25" | "hybrid";
  /** Why hybrid ranking fell back to BM25, when it did. */
  fallback?: string;
}

/** Candidates each ranking contributes to the fusion. */
const FUSION_DEPTH = 50;
/** Reciprocal rank fusion constant (Cormack et al.): 60 keeps one list's top rank from dominating. */
const RRF_K = 60;

/**
 * BM25 over the memories `viewer` may see (optionally one scope or subject), fused with cosine similarity by
 * reciprocal rank when an embedder is given. A failing embedding model leaves BM25's ranking and says why.
 */
export async function searchMemories(memories: ProfileMemories, viewer: Viewer, request: SearchRequest, embedder?: Embedder, signal?: AbortSignal): Promise<SearchOutcome> {
  const accept = (record: MemoryRecord | undefined): record is MemoryRecord =>
    record !== undefined && canSee(viewer, record) && (request.scope === undefined || record.scope === request.scope) && (request.subject === undefined || record.subject === request.subject);
  const depth = embedder ? Math.max(FUSION_DEPTH, request.limit) : request.limit;
  const lexical = memories.index.search(request.query, depth, (id) => accept(memories.records.get(id)));
  const bm25 = (): SearchOutcome => ({ hits: lexical.slice(0, request.limit).map(({ id, score }) => ({ record: memories.records.get(id)!, score })), ranking: "bm25" });
  if (!embedder) return bm25();
  try {
    const candidates = [...memories.records.values()].filter(accept);
    await embedder.backfill(candidates, signal);
    const vector = await embedder.query(request.query, signal);
    const semantic = candidates
      .filter((record) => record.embedding !== null && record.embeddingModel === embedder.model)
      .map((record) => ({ id: record.id, score: cosine(vector, record.embedding!) }))
      .sort((a, b) => b.score - a.score || b.id - a.id)
      .slice(0, FUSION_DEPTH);
    const fused = new Map<number, number>();
    for (const list of [lexical, semantic]) list.forEach(({ id }, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
    const hits = [...fused]
      .sort((a, b) => b[1] - a[1] || b[0] - a[0])
      .slice(0, request.limit)
      .map(([id, score]) => ({ record: memories.records.get(id)!, score }));
    return { hits, ranking: "hybrid" };
  } catch (error) {
    return { ...bm25(), fallback: `embedding model "${embedder.model}" failed: ${(error as Error).message}` };
  }
}
