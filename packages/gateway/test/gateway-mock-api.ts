// An in-process dialect for gateway unit tests: every provider id / model id pair is a MockLanguageModelV4
// whose behaviour a test scripts by reference; calls are recorded in order.
import { NoSuchModelError } from "@ai-sdk/provider";
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult, ProviderV4 } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import type { ApiFactory, Gateway } from "../src/index.js";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

export const finish: LanguageModelV4StreamPart = { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } };

export function streamOf(parts: LanguageModelV4StreamPart[], error?: unknown): LanguageModelV4StreamResult {
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        if (error) controller.error(error);
        else controller.close();
      },
    }),
  };
}

export function textParts(text: string): LanguageModelV4StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: text },
    { type: "text-end", id: "t" },
    finish,
  ];
}

export interface Call {
  ref: string;
  options: LanguageModelV4CallOptions;
}

export type Script = (options: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4StreamResult>;

/** By default `<provider>:<model>` streams its own reference as text. */
export function mockApi(scripts: Record<string, Script> = {}, calls: Call[] = []): ApiFactory {
  return ({ id }): ProviderV4 => ({
    specificationVersion: "v4",
    languageModel(modelId): LanguageModelV4 {
      const ref = `${id}:${modelId}`;
      return new MockLanguageModelV4({
        provider: `${id}.mock`,
        modelId,
        doStream: async (options) => {
          calls.push({ ref, options });
          return scripts[ref] ? scripts[ref](options) : streamOf(textParts(ref));
        },
        doGenerate: async (options) => {
          calls.push({ ref, options });
          return { content: [{ type: "text", text: ref }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
        },
      });
    },
    embeddingModel(modelId) {
      throw new NoSuchModelError({ modelId, modelType: "embeddingModel" });
    },
    imageModel(modelId) {
      throw new NoSuchModelError({ modelId, modelType: "imageModel" });
    },
  });
}

/**
 * Serves every `mock:<id>` reference of `gateway` from `model` (the test kits' scripted model): registers the
 * `scripted` dialect and reconfigures the gateway to one provider `mock` on it. Other model kinds throw.
 */
export function serveScriptedModel(gateway: Gateway, model: LanguageModelV4): void {
  gateway.defineApi("scripted", (): ProviderV4 => ({
    specificationVersion: "v4",
    languageModel: () => model,
    embeddingModel: () => {
      throw new Error("no embeddings");
    },
    imageModel: () => {
      throw new Error("no images");
    },
  }) as ProviderV4);
  gateway.reconfigure({ providers: { mock: { api: "scripted" } } });
}
