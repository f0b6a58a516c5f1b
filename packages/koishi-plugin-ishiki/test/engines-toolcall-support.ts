// Shared by the toolcall engine tests: a model that streams scripted text in small chunks.
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import { usage } from "../../core/test/agent-support.js";

/** A model that streams each scripted text in 3-character chunks (the last repeats), recording every request. */
export function chunkedModel(texts: string[]): MockLanguageModelV4 & { prompts: LanguageModelV4CallOptions[] } {
  const prompts: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      prompts.push(options);
      const text = texts[Math.min(prompts.length - 1, texts.length - 1)];
      const chunks: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }];
      for (let i = 0; i < text.length; i += 3) chunks.push({ type: "text-delta", id: "t", delta: text.slice(i, i + 3) });
      chunks.push({ type: "text-end", id: "t" }, { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
  return Object.assign(model, { prompts });
}

/** All text of a prompt, one line per message. */
export const promptText = (prompt: LanguageModelV4Prompt): string =>
  prompt.map((message) => (typeof message.content === "string" ? message.content : message.content.map((part) => ("text" in part ? part.text : part.type)).join(""))).join("\n");
