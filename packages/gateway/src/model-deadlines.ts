import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from "@ai-sdk/provider";
import { labelCallError } from "./call-error.js";
import type { ModelTimeouts } from "./config.js";
import { PRELUDE } from "./stream-prelude.js";

/**
 * Defaults of `timeouts` (spec 02, decided here): generous enough for a reasoning model that thinks before its
 * first token, short enough that a stalled endpoint frees the channel within minutes rather than never.
 */
export const DEFAULT_TIMEOUTS: Required<ModelTimeouts> = { firstChunkMs: 90_000, idleMs: 30_000, responseMs: 180_000 };

type Phase = keyof ModelTimeouts;

/**
 * A model call that ran past one of its deadlines. The request was cancelled; like an unreachable endpoint it
 * counts as the candidate being unavailable, so failover tries the next one (GW-22).
 */
export class ModelTimeoutError extends Error {
  override readonly name = "ModelTimeoutError";

  constructor(
    readonly ref: string,
    readonly phase: Phase,
    readonly ms: number,
  ) {
    super(`model "${ref}" ${WHAT[phase]} within ${seconds(ms)} (timeouts.${phase}); the request was cancelled`);
  }
}

const WHAT: Record<Phase, string> = {
  firstChunkMs: "sent no output",
  idleMs: "stopped sending output: nothing more arrived",
  responseMs: "did not answer",
};

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Deadlines for every call of `model` (spec 02, issue 16): a stream must bring its first output part within
 * `firstChunkMs` of the call and each further part within `idleMs` of the one before (keep-alive comments and
 * metadata parts do not count); a generate call must answer within `responseMs`. A deadline that passes aborts
 * the HTTP request and fails the call with a `ModelTimeoutError`. `0` turns a deadline off. Provider HTTP errors
 * leave with the status and `ref` in their message (`labelCallError`).
 */
export function withDeadlines(model: LanguageModelV4, ref: string, timeouts: ModelTimeouts = {}): LanguageModelV4 {
  const limits = { ...DEFAULT_TIMEOUTS, ...timeouts };
  return {
    specificationVersion: "v4",
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    async doGenerate(options) {
      const deadline = new Deadline(ref, options.abortSignal);
      try {
        return await deadline.race(model.doGenerate({ ...options, abortSignal: deadline.signal }), "responseMs", limits.responseMs);
      } catch (error) {
        throw labelCallError(error, ref);
      } finally {
        deadline.clear();
      }
    },
    async doStream(options) {
      const deadline = new Deadline(ref, options.abortSignal);
      const firstBy = Date.now() + limits.firstChunkMs;
      let result: LanguageModelV4StreamResult;
      try {
        result = await deadline.race(model.doStream({ ...options, abortSignal: deadline.signal }), "firstChunkMs", limits.firstChunkMs);
      } catch (error) {
        deadline.clear();
        throw labelCallError(error, ref);
      }
      const reader = result.stream.getReader();
      // One timer for the whole stream, re-armed only when it fires early: a part costs a clock read, not a timer.
      let answering = false;
      let lastPartAt = Date.now();
      const due = (): [Phase, number, number] | undefined => {
        if (!answering) return limits.firstChunkMs === 0 ? undefined : ["firstChunkMs", firstBy, limits.firstChunkMs];
        return limits.idleMs === 0 ? undefined : ["idleMs", lastPartAt + limits.idleMs, limits.idleMs];
      };
      const rearm = deadline.watch(due, () => reader.cancel().catch(() => {}));
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            deadline.clear();
            controller.error(labelCallError(deadline.expired ?? error, ref));
            return;
          }
          if (deadline.expired) {
            controller.error(deadline.expired);
            return;
          }
          if (next.done) {
            deadline.clear();
            controller.close();
            return;
          }
          lastPartAt = Date.now();
          // The first output part moves the deadline from the first-chunk one to the (usually earlier) idle one.
          if (!answering && !PRELUDE.has(next.value.type)) {
            answering = true;
            rearm();
          }
          if (next.value.type === "error") labelCallError(next.value.error, ref);
          controller.enqueue(next.value);
        },
        cancel(reason) {
          deadline.clear();
          return reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
}

/** One call's deadlines: its own abort signal joined to the caller's, and at most one timer at a time. */
class Deadline {
  private readonly controller = new AbortController();
  readonly signal: AbortSignal;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The deadline that passed, once one has. */
  expired: ModelTimeoutError | undefined;

  constructor(
    private readonly ref: string,
    callerSignal: AbortSignal | undefined,
  ) {
    this.signal = callerSignal ? AbortSignal.any([callerSignal, this.controller.signal]) : this.controller.signal;
  }

  /**
   * Settles like `work`, or rejects with a `ModelTimeoutError` (aborting the request) when `waitMs` passes
   * first; `reportedMs` is the deadline named in the error (the configured value, not what was left of it).
   */
  race<T>(work: PromiseLike<T>, phase: Phase, waitMs: number, reportedMs = waitMs): Promise<T> {
    this.clear();
    if (waitMs <= 0) return Promise.resolve(work);
    return new Promise<T>((resolve, reject) => {
      this.timer = setTimeout(() => reject(this.expire(phase, reportedMs)), waitMs);
      work.then(
        (value) => {
          this.clear();
          resolve(value);
        },
        (error: unknown) => {
          this.clear();
          // An abort caused by our own deadline surfaces as the deadline, not as the transport's AbortError.
          reject(this.controller.signal.aborted ? this.controller.signal.reason : error);
        },
      );
    });
  }

  /**
   * Keeps one timer on whatever `due` says is the next deadline (`[phase, at, configured ms]`, or undefined for
   * none); when it passes, the request is aborted and `onExpire` runs (the stream's reader is cancelled). Deadlines
   * may move later freely; call the returned function when one moves earlier.
   */
  watch(due: () => [Phase, number, number] | undefined, onExpire: () => void): () => void {
    const check = () => {
      const next = due();
      if (next === undefined) {
        this.timer = setTimeout(check, 1000);
        return;
      }
      const [phase, at, configured] = next;
      const left = at - Date.now();
      if (left > 0) {
        this.timer = setTimeout(check, left);
        return;
      }
      this.expire(phase, configured);
      onExpire();
    };
    const start = () => {
      this.clear();
      check();
    };
    start();
    return start;
  }

  private expire(phase: Phase, ms: number): ModelTimeoutError {
    this.expired = new ModelTimeoutError(this.ref, phase, ms);
    this.controller.abort(this.expired);
    return this.expired;
  }

  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
