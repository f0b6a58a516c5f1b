// A V4 model for the standard context engine's tests: chat steps answer with `finish` and report input tokens
// as `fixed + rate × prompt chars` (the usage the engine learns from); `generate` (the summariser's call)
// is scripted per test.
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart, ProviderV4 } from "@ai-sdk/provider";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";

export interface BudgetModelOptions {
  fixed: number;
  rate: number;
  summarise(options: LanguageModelV4CallOptions): Promise<string> | string;
}

export interface BudgetModel {
  model: MockLanguageModelV4;
  provider: ProviderV4;
  /** The chat prompts, one per step. */
  chats: LanguageModelV4CallOptions[];
  /** The summariser prompts. */
  summaries: LanguageModelV4CallOptions[];
  /** The input tokens reported for each chat prompt. */
  tokens(options: LanguageModelV4CallOptions): number;
}

/** Chars of a prompt as the engine assembles them: texts, tool names with inputs and outputs; system excluded. */
export function promptChars(options: LanguageModelV4CallOptions): number {
  let chars = 0;
  for (const message of options.prompt) {
    if (message.role === "system") continue;
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") chars += part.text.length;
      else if (part.type === "tool-call") chars += part.toolName.length + JSON.stringify(part.input).length;
      else if (part.type === "tool-result") {
        const output = part.output;
        chars += part.toolName.length + ("value" in output ? (typeof output.value === "string" ? output.value.length : JSON.stringify(output.value).length) : 0);
      }
    }
  }
  return chars;
}

let calls = 0;

export function budgetModel(options: BudgetModelOptions): BudgetModel {
  const chats: LanguageModelV4CallOptions[] = [];
  const summaries: LanguageModelV4CallOptions[] = [];
  const tokens = (call: LanguageModelV4CallOptions): number => Math.round(options.fixed + options.rate * promptChars(call));
  const usage = (input: number) => ({
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 2, text: 2, reasoning: 0 },
  });
  const model = new MockLanguageModelV4({
    doStream: async (call) => {
      chats.push(call);
      calls += 1;
      const chunks: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "tool-call", toolCallId: `f${calls}`, toolName: "finish", input: "{}" },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: usage(tokens(call)) },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
    doGenerate: async (call): Promise<LanguageModelV4GenerateResult> => {
      summaries.push(call);
      const text = await options.summarise(call);
      return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage: usage(10), warnings: [] };
    },
  });
  const provider = {
    specificationVersion: "v4",
    languageModel: () => model,
    embeddingModel: () => {
      throw new Error("no embeddings");
    },
    imageModel: () => {
      throw new Error("no images");
    },
  } as unknown as ProviderV4;
  return { model, provider, chats, summaries, tokens };
}
