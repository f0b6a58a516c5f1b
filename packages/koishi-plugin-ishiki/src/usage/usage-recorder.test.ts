import { describe, expect, it } from "vitest";
import { createAssistantMessage, createEntry, createToolMessage, type Agent, type AgentEntry } from "@yesimagent/core";
import type { LanguageModelUsage } from "ai";
import { UsageRecorder } from "./usage-recorder.js";

const usage = (input: number): LanguageModelUsage => ({ inputTokens: input, inputTokenDetails: { noCacheTokens: input, cacheReadTokens: 0, cacheWriteTokens: 0 }, outputTokens: 1, outputTokenDetails: { textTokens: 1, reasoningTokens: 0 }, totalTokens: input + 1 });
const silent = { debug() {}, info() {}, warn() {}, error() {} };

function fakeAgent(appended: AgentEntry[], turnId: string | null = null): Agent {
  return { getActiveTurnId: () => turnId, storage: { append: async (...entries: AgentEntry[]) => void appended.push(...entries) } } as unknown as Agent;
}

const stepBatch = () => [createEntry("message", createAssistantMessage([{ type: "text", text: "hi" }], { usage: usage(9) })), createEntry("message", createToolMessage([]))];

describe("usage records (issue 22)", () => {
  it("a step's one call names its model on the assistant message; several calls are listed with their purposes", async () => {
    const recorder = new UsageRecorder(() => fakeAgent([]), silent, undefined);
    const plugin = recorder.plugin();
    recorder.stepSink()({ model: "relay:a", usage: usage(9) });
    const [assistant, tool] = (await plugin.onAppend!(stepBatch()))!;
    expect(assistant.data).toMatchObject({ role: "assistant", model: "relay:a" });
    expect(tool.data).not.toHaveProperty("model");

    recorder.stepSink("toolcall:narrative")({ model: "relay:a", usage: usage(4) });
    recorder.stepSink("toolcall:narrative")({ model: "relay:b", usage: usage(5), detail: "replyer" });
    const [listed] = (await plugin.onAppend!(stepBatch()))!;
    expect((listed.data as { calls?: unknown }).calls).toEqual([
      { model: "relay:a", purpose: "toolcall:narrative", usage: usage(4) },
      { model: "relay:b", purpose: "toolcall:narrative/replyer", usage: usage(5) },
    ]);
    // Calls of a step aborted before its append do not reach the next step's record.
    recorder.stepSink()({ model: "relay:lost", usage: usage(1) });
    await plugin.prepareStep!({} as never);
    expect(await plugin.onAppend!(stepBatch())).toBeUndefined();
  });

  it("side requests become ishiki.usage facts in the active turn; after stop they are only counted", async () => {
    const appended: AgentEntry[] = [];
    const recorder = new UsageRecorder(() => fakeAgent(appended, "t1"), silent, undefined);
    recorder.sideSink("wakeup:judge")({ model: "judge:j", usage: usage(3) });
    recorder.stop();
    recorder.sideSink("wakeup:judge")({ model: "judge:j", usage: usage(3) });
    expect(appended.map((entry) => [entry.type, entry.turnId, entry.data])).toEqual([["ishiki.usage", "t1", { purpose: "wakeup:judge", model: "judge:j", usage: usage(3) }]]);
  });
});
