import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { meterLanguageModel, type ModelCall } from "./metered-model.js";

const usage = { inputTokens: { total: 10, noCache: 6, cacheRead: 4, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } };
const finishReason = { unified: "stop" as const, raw: "stop" };

describe("metered models (issue 22)", () => {
  it("a generate call reports its usage in the stored shape, with the purpose the caller gave", async () => {
    const calls: ModelCall[] = [];
    const model = meterLanguageModel(new MockLanguageModelV4({ doGenerate: async () => ({ content: [{ type: "text", text: "ok" }], finishReason, usage, warnings: [] }) }), "relay:m", (call) => calls.push(call));
    await generateText({ model, prompt: "hi", providerOptions: { ishiki: { purpose: "compaction" } } });
    expect(calls).toEqual([
      {
        model: "relay:m",
        detail: "compaction",
        usage: { inputTokens: 10, inputTokenDetails: { noCacheTokens: 6, cacheReadTokens: 4, cacheWriteTokens: 0 }, outputTokens: 3, outputTokenDetails: { textTokens: 3, reasoningTokens: 0 }, totalTokens: 13 },
      },
    ]);
  });

  it("a stream reports at its finish part, naming the candidate a failover model put there; a broken sink does not fail the call", async () => {
    const calls: ModelCall[] = [];
    const inner = new MockLanguageModelV4({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "hey" }, { type: "text-end", id: "t" }, { type: "finish", finishReason, usage, providerMetadata: { gateway: { model: "relay:b" } } }],
          initialDelayInMs: null,
          chunkDelayInMs: null,
        }),
      }),
    });
    const metered = meterLanguageModel(inner, "main", (call) => calls.push(call));
    expect(await streamText({ model: metered, prompt: "hi" }).text).toBe("hey");
    expect(calls.map((call) => [call.model, call.usage.inputTokens, call.detail])).toEqual([["relay:b", 10, undefined]]);
    const broken = meterLanguageModel(inner, "main", () => {
      throw new Error("sink down");
    });
    expect(await streamText({ model: broken, prompt: "hi" }).text).toBe("hey");
  });
});
