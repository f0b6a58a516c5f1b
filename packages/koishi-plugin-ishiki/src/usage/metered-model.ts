import type { LanguageModelUsage } from "ai";
import type { EmbeddingModelV4, LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { servedBy, type Gateway } from "@yesimagent/gateway";
import { storedUsage } from "./usage-sum.js";

/** One answered model call: the declared reference that served it and its usage. */
export interface ModelCall {
  model: string;
  usage: LanguageModelUsage;
  /** What the caller said the call was for (`providerOptions.ishiki.purpose`), e.g. `compaction`. */
  detail?: string;
}

/**
 * A caller may say what one call is for with `providerOptions: { ishiki: { purpose: "compaction" } }`; providers
 * read only their own namespace, so the option reaches no endpoint.
 */
function detailOf(options: LanguageModelV4CallOptions): string | undefined {
  const purpose = options.providerOptions?.ishiki?.purpose;
  return typeof purpose === "string" && purpose !== "" ? purpose : undefined;
}

function call(model: string, usage: LanguageModelV4Usage, options: LanguageModelV4CallOptions): ModelCall {
  const detail = detailOf(options);
  return { model, usage: storedUsage(usage), ...(detail === undefined ? {} : { detail }) };
}

/** Receives every answered call of a metered model; it must not throw (its errors are swallowed). */
export type CallSink = (call: ModelCall) => void;

function report(sink: CallSink, call: ModelCall): void {
  try {
    sink(call);
  } catch {
    // Metering is bookkeeping: a broken sink must not fail the model call it observes.
  }
}

/**
 * `model` observed: every answered call (a generate result, a stream's `finish` part) goes to `sink` with its
 * usage and the reference that served it: the candidate a failover model names (gateway `servedBy`), else `ref`.
 * Calls pass through unchanged; a failed or aborted call reports nothing (there is no usage to report).
 */
export function meterLanguageModel(model: LanguageModelV4, ref: string, sink: CallSink): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    get provider() {
      return model.provider;
    },
    get modelId() {
      return model.modelId;
    },
    get supportedUrls() {
      return model.supportedUrls;
    },
    async doGenerate(options) {
      const result = await model.doGenerate(options);
      report(sink, call(servedBy(result.providerMetadata) ?? ref, result.usage, options));
      return result;
    },
    async doStream(options) {
      const result = await model.doStream(options);
      const observe = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        transform(part, controller) {
          if (part.type === "finish") report(sink, call(servedBy(part.providerMetadata) ?? ref, part.usage, options));
          controller.enqueue(part);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(observe) };
    },
  };
}

/** An embedding model observed like a language model; its tokens count as input. */
function meterEmbeddingModel(model: EmbeddingModelV4, ref: string, sink: CallSink): EmbeddingModelV4 {
  return new Proxy(model, {
    get(target, key, receiver) {
      if (key !== "doEmbed") return Reflect.get(target, key, receiver);
      return async (options: Parameters<EmbeddingModelV4["doEmbed"]>[0]) => {
        const result = await target.doEmbed(options);
        const tokens = result.usage?.tokens;
        if (tokens !== undefined) report(sink, { model: ref, usage: { inputTokens: tokens, inputTokenDetails: { noCacheTokens: tokens, cacheReadTokens: undefined, cacheWriteTokens: undefined }, outputTokens: 0, outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined }, totalTokens: tokens } });
        return result;
      };
    },
  });
}

/**
 * The gateway as one requester sees it: the language and embedding models it hands out are metered into `sink`.
 * Everything else is the shared gateway itself (lookups, groups, `reconfigure`).
 */
export function meterGateway(gateway: Gateway, sink: CallSink): Gateway {
  return {
    ...gateway,
    languageModel: (ref) => meterLanguageModel(gateway.languageModel(ref), ref, sink),
    profileModel: (model, options) => meterLanguageModel(gateway.profileModel(model, options), model, sink),
    embeddingModel: (ref) => meterEmbeddingModel(gateway.embeddingModel(ref), ref, sink),
  };
}
