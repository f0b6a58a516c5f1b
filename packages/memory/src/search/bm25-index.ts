import { tokenize } from "koishi-plugin-ishiki";

const K1 = 1.2;
const B = 0.75;

interface Posting {
  slots: number[];
  tfs: number[];
  /** Live documents holding the term. */
  df: number;
}

export interface ScoredDocument {
  id: number;
  score: number;
}

/**
 * An in-memory BM25 index over memory texts, tokenized by the kernel's CJK-aware tokenizer (the one tool search
 * uses), so Chinese runs match by overlapping bigrams. Documents live in slots; removing one leaves a tombstone
 * that scoring skips, and the postings are rebuilt once tombstones outnumber live documents.
 */
export class Bm25Index {
  private readonly postings = new Map<string, Posting>();
  private ids: number[] = [];
  private lengths: number[] = [];
  private terms: string[][] = [];
  private alive: boolean[] = [];
  private readonly slotOf = new Map<number, number>();
  private totalLength = 0;
  private dead = 0;
  private scores = new Float64Array(0);

  public get size(): number {
    return this.slotOf.size;
  }

  public has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Indexes `text` under `id`, replacing what `id` held. */
  public add(id: number, text: string): void {
    this.remove(id);
    const slot = this.ids.length;
    const counts = new Map<string, number>();
    const tokens = tokenize(text);
    for (const term of tokens) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = { slots: [], tfs: [], df: 0 }));
      posting.slots.push(slot);
      posting.tfs.push(tf);
      posting.df += 1;
    }
    this.ids.push(id);
    this.lengths.push(tokens.length);
    this.terms.push([...counts.keys()]);
    this.alive.push(true);
    this.slotOf.set(id, slot);
    this.totalLength += tokens.length;
  }

  public remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.alive[slot] = false;
    this.totalLength -= this.lengths[slot];
    for (const term of this.terms[slot]) this.postings.get(term)!.df -= 1;
    this.terms[slot] = [];
    this.dead += 1;
    if (this.dead > 1024 && this.dead > this.slotOf.size) this.compact();
  }

  /**
   * The best `limit` documents for `query` among those `accept` admits, best first; ties go to the newer
   * (higher) id. Documents sharing no term with the query are never returned.
   */
  public search(query: string, limit: number, accept: (id: number) => boolean = () => true): ScoredDocument[] {
    const count = this.slotOf.size;
    if (count === 0 || limit <= 0) return [];
    const average = this.totalLength / count;
    if (this.scores.length < this.ids.length) this.scores = new Float64Array(Math.max(this.ids.length, this.scores.length * 2));
    const scores = this.scores;
    const touched: number[] = [];
    for (const term of new Set(tokenize(query))) {
      const posting = this.postings.get(term);
      if (!posting || posting.df === 0) continue;
      const idf = Math.log(1 + (count - posting.df + 0.5) / (posting.df + 0.5));
      const { slots, tfs } = posting;
      for (let index = 0; index < slots.length; index++) {
        const slot = slots[index];
        if (!this.alive[slot]) continue;
        const tf = tfs[index];
        const gain = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[slot]) / average));
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] += gain;
      }
    }
    const best: ScoredDocument[] = [];
    for (const slot of touched) {
      const score = scores[slot];
      scores[slot] = 0;
      if (best.length === limit && !better(score, this.ids[slot], best[limit - 1])) continue;
      const id = this.ids[slot];
      if (!accept(id)) continue;
      insert(best, { id, score }, limit);
    }
    return best;
  }

  private compact(): void {
    const live = [...this.slotOf.keys()].map((id) => this.slotOf.get(id)!);
    const old = { ids: this.ids, lengths: this.lengths, terms: this.terms };
    const remap = new Map<number, number>();
    this.ids = [];
    this.lengths = [];
    this.terms = [];
    this.alive = [];
    for (const slot of live.sort((a, b) => a - b)) {
      remap.set(slot, this.ids.length);
      this.slotOf.set(old.ids[slot], this.ids.length);
      this.ids.push(old.ids[slot]);
      this.lengths.push(old.lengths[slot]);
      this.terms.push(old.terms[slot]);
      this.alive.push(true);
    }
    for (const [term, posting] of this.postings) {
      if (posting.df === 0) {
        this.postings.delete(term);
        continue;
      }
      const slots: number[] = [];
      const tfs: number[] = [];
      for (let index = 0; index < posting.slots.length; index++) {
        const slot = remap.get(posting.slots[index]);
        if (slot === undefined) continue;
        slots.push(slot);
        tfs.push(posting.tfs[index]);
      }
      posting.slots = slots;
      posting.tfs = tfs;
    }
    this.dead = 0;
  }
}

function better(score: number, id: number, than: ScoredDocument): boolean {
  return score > than.score || (score === than.score && id > than.id);
}

/** Inserts into a best-first list kept at most `limit` long. */
function insert(best: ScoredDocument[], item: ScoredDocument, limit: number): void {
  let index = best.length;
  while (index > 0 && better(item.score, item.id, best[index - 1])) index -= 1;
  best.splice(index, 0, item);
  if (best.length > limit) best.pop();
}
