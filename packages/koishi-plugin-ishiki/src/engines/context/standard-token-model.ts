/** One step's pairing of the chars the engine assembled with the input tokens the provider reported. */
interface Sample {
  chars: number;
  tokens: number;
}

const DEFAULT_RATE = 0.5;
const MIN_RATE = 0.1;
const MAX_RATE = 1.5;
const MIN_SPREAD = 0.1;
const KEPT_SAMPLES = 8;

/**
 * `tokens ≈ fixed + rate × chars` (spec 06 EN-13). `fixed` absorbs what the engine does not assemble
 * (instructions, tool schemas); `rate` is learned from two samples at least 10 % apart in chars and kept only
 * when plausible, since a provider's cache or a changed tool surface between the two can skew one pair.
 */
export class TokenModel {
  public rate = DEFAULT_RATE;
  public fixed = 0;
  private samples: Sample[] = [];

  public observe(chars: number, tokens: number): void {
    if (!(chars > 0) || !Number.isFinite(tokens) || tokens < 0) return;
    const other = this.samples.findLast((sample) => Math.abs(sample.chars - chars) >= MIN_SPREAD * Math.min(sample.chars, chars));
    if (other !== undefined) {
      const rate = (tokens - other.tokens) / (chars - other.chars);
      if (rate >= MIN_RATE && rate <= MAX_RATE) this.rate = rate;
    }
    this.fixed = Math.max(0, tokens - this.rate * chars);
    this.samples.push({ chars, tokens });
    if (this.samples.length > KEPT_SAMPLES) this.samples.shift();
  }

  /** The chars a window may hold under `maxTokens`, and the refill target below it. */
  public budget(maxTokens: number, refillRatio: number): WindowBudget {
    const ceiling = (maxTokens - this.fixed) / this.rate;
    return { ceiling, target: ceiling * refillRatio };
  }
}

/**
 * The widest budget any learned model can give for `maxTokens` (lowest rate, nothing fixed): a window planned
 * with it starts no later than any real one, so it is what the runtime keeps in memory (issue 19).
 */
export function widestBudget(maxTokens: number): WindowBudget {
  // The refill target is the ceiling too: a plan stopped by it then also proves every earlier start over the
  // ceiling, whatever anchor a compaction still running writes later.
  const ceiling = maxTokens / MIN_RATE;
  return { ceiling, target: ceiling };
}

export interface WindowBudget {
  ceiling: number;
  target: number;
}
