import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { backoffDelay, sleep } from "./backoff.js";
import { classifyFailure, describeFailure } from "./classify.js";
import type { FailureClass } from "./classify.js";
import type { FailoverConfig } from "./config.js";
import { GatewayError } from "./errors.js";
import { openStream } from "./failover-stream.js";
import type { GatewayLogger } from "./logger.js";
import type { Candidate, CandidateSource } from "./model-group.js";
import { retryAfterMs } from "./retry-after.js";
import { withServedBy } from "./served-by.js";

/** The longest `Retry-After` a call waits out before trying that endpoint again; past it the call gives up. */
export const MAX_RETRY_AFTER_MS = 30_000;

export interface FailoverModelOptions extends FailoverConfig {
  logger: GatewayLogger;
  /** Applied to every logged error message, so an endpoint echoing a key cannot leak it. */
  redact?: (text: string) => string;
  /** Jitter source; `Math.random` by default. */
  random?: () => number;
}

/**
 * A language model that spreads each call over the candidates of `source` (spec 02 §6): an abort rethrows
 * with nothing recorded, an unavailable endpoint records a failure and the next candidate is tried after a
 * backoff, any other 4xx rethrows unless `failoverOn` is `any`. Exhaustion rethrows the last error. Call the
 * underlying models with `maxRetries: 0` so this is the only retry layer (GW-24). An endpoint that answered with
 * `Retry-After` is tried again no sooner than it asked; one that asked for more than 30 s is not tried again.
 */
export function createFailoverModel(source: CandidateSource, options: FailoverModelOptions): LanguageModelV4 {
  const { logger, redact = (text: string) => text, random, backoffMs = 500, failoverOn = "unavailable" } = options;

  async function run<T>(call: LanguageModelV4CallOptions, attempt: (candidate: Candidate) => Promise<T>): Promise<T> {
    const candidates = source.candidates();
    if (candidates.length === 0) throw new GatewayError(`${source.name}: offers no candidates`);
    const total = Math.max(1, options.attempts ?? candidates.length);
    const tried: string[] = [];
    // When each endpoint that sent Retry-After may be called again, for this call's later attempts.
    const waitUntil = new Map<string, number>();
    let lastError: unknown;
    let made = 0;
    for (let n = 0; n < total; n++) {
      const candidate = candidates[n % candidates.length];
      made++;
      try {
        return await attempt(candidate);
      } catch (error) {
        if (call.abortSignal?.aborted) throw error;
        const kind: FailureClass = classifyFailure(error);
        if (kind === "rejected" && failoverOn !== "any") throw error;
        if (kind === "unavailable") candidate.failure();
        lastError = error;
        const failure = `${candidate.id} failed (${kind}: ${redact(describeFailure(error))})`;
        tried.push(failure);
        const asked = retryAfterMs(error);
        if (asked !== undefined) waitUntil.set(candidate.id, Date.now() + asked);
        if (n + 1 < total) {
          const next = candidates[(n + 1) % candidates.length];
          const held = (waitUntil.get(next.id) ?? 0) - Date.now();
          if (held > MAX_RETRY_AFTER_MS) {
            tried.push(`${next.id} asked to wait ${Math.ceil(held / 1000)} s (Retry-After); not retried`);
            break;
          }
          const delay = Math.max(backoffDelay(n + 1, backoffMs, random), held);
          logger.info(`${failure}; trying ${next.id} in ${delay} ms${held > 0 ? " (Retry-After)" : ""}`);
          await sleep(delay, call.abortSignal);
        }
      }
    }
    logger.warn(`${source.name}: ${made === total ? `all ${total}` : `${made} of ${total}`} attempts failed: ${tried.map((line, i) => `${i + 1}) ${line}`).join("; ")}`);
    throw lastError;
  }

  return {
    specificationVersion: "v4",
    provider: "ishiki.failover",
    modelId: source.name,
    // Candidates may differ in what URLs they fetch themselves; an empty map makes the SDK download all.
    supportedUrls: {},
    doGenerate: (call) =>
      run(call, async (candidate) => {
        const result = await candidate.model.doGenerate(call);
        if (result.content.length === 0) throw new Error("response without content");
        candidate.success();
        return { ...result, providerMetadata: withServedBy(result.providerMetadata, candidate.id) };
      }),
    doStream: (call) => run(call, (candidate) => openStream(candidate, call)),
  };
}
