// Issue 21: every kind of fact the Ishiki page shows maps to its rows, long texts fold, and the overview's
// "tokens today" counts every model call since the UTC day began, as `ishiki.usage` does.
import { createAssistantMessage, createCustomMessage, createEntry, createToolMessage, createUserMessage, type AgentEntry } from "@yesimagent/core";
import { describe, expect, it } from "vitest";
import { summarize } from "./overview.js";
import { FOLD_CHARS, foldRows, rowsOf } from "./timeline.js";

const at = { timestamp: 1_000, turnId: "t1" };

function kinds(entry: AgentEntry) {
  return rowsOf(entry, 7).map((row) => [row.kind, row.title, row.summary]);
}

describe("the Ishiki page's timeline rows (issue 21)", () => {
  it("messages in and out, model calls with usage, tool calls with inputs and outputs, codemode with its return value", () => {
    const created = createEntry("message", createCustomMessage("ishiki.message.created", { timestamp: 1, platform: "sandbox", selfId: "k", channelId: "@a", isDirect: true, messageId: "m1", content: "plan my notes", user: { id: "a", name: "Alice" } }), at);
    expect(rowsOf(created, 1)).toEqual([expect.objectContaining({ seq: 1, kind: "message.in", title: "Alice (a)", turnId: "t1", sections: [{ label: "content", text: "plan my notes", length: 13 }] })]);

    const step = createEntry("message", createAssistantMessage([
      { type: "reasoning", text: "think" },
      { type: "text", text: "on it" },
      { type: "tool-call", toolCallId: "c1", toolName: "search", input: { query: "write" } },
      { type: "tool-call", toolCallId: "c2", toolName: "codemode", input: { js: "return 1 + 1" } },
      { type: "tool-call", toolCallId: "c3", toolName: "send_message", input: { messages: ["hi", "there"] } },
    ], { usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150 } as never, finishReason: "tool-calls" }), at);
    expect(kinds(step)).toEqual([
      ["model", "model call", "in 120 / out 30 tokens · calls search, codemode, send_message · finish: tool-calls"],
      ["tool", "search", undefined],
      ["codemode", "codemode program", undefined],
      ["message.out", "send_message", "hi"],
    ]);
    const [model, search, program, out] = rowsOf(step, 2);
    expect(model.sections.map((section) => section.label)).toEqual(["reasoning", "text"]);
    expect(search).toEqual(expect.objectContaining({ callId: "c1", sections: [expect.objectContaining({ label: "input", text: JSON.stringify({ query: "write" }, null, 2) })] }));
    expect(program.sections[0]).toEqual(expect.objectContaining({ label: "program", text: "return 1 + 1" }));
    expect(out.sections[0].text).toBe("hi\nthere");

    const results = createEntry("message", createToolMessage([
      { type: "tool-result", toolCallId: "c2", toolName: "codemode", output: { type: "json", value: 2 } },
      { type: "tool-result", toolCallId: "c1", toolName: "search", output: { type: "error-text", value: "index unavailable" } },
    ]), at);
    const [returned, failed] = rowsOf(results, 3);
    expect(returned).toEqual(expect.objectContaining({ kind: "tool.result", callId: "c2", sections: [expect.objectContaining({ label: "return value", text: "2" })] }));
    expect(failed).toEqual(expect.objectContaining({ kind: "tool.result", callId: "c1", error: "index unavailable" }));

    expect(kinds(createEntry("message", createUserMessage("Continue."), at))).toEqual([["message.in", "user message", undefined]]);
  });

  it("attachments with their lifetimes, deliveries, catalog updates, turn failures with their error, compaction, deletions", () => {
    const attachment = createEntry("message", createCustomMessage("ishiki.attachment", { source: "tool", toolName: "screenshot", toolCallId: "c9", items: [{ url: "artifact://a/1.png", mediaType: "image/png", size: 2048, lifetime: "once", immutable: true }] }), at);
    expect(kinds(attachment)).toEqual([["attachment", "attachments from screenshot", "image/png (once)"]]);
    expect(rowsOf(attachment, 1)[0].sections[0].text).toBe("artifact://a/1.png image/png 2048 B, lifetime once, immutable");
    const delivery = createEntry("ishiki.delivery", { turnId: "t1", stepNumber: 2, items: [{ key: "k", url: "artifact://a/1.png", outcome: "shown" }] }, at);
    expect(kinds(delivery)).toEqual([["delivery", "attachments in step 2", "artifact://a/1.png: shown"]]);
    const catalog = createEntry("message", createCustomMessage("ishiki.tools.catalog", { version: 1, kind: "delta", mode: "codemode", added: [{ name: "bash", description: "run" }], removed: ["old"], visible: ["bash"], text: "Code mode capability update" }), at);
    expect(kinds(catalog)).toEqual([["catalog", "tool catalog delta (codemode)", "+bash -old"]]);
    const failed = createEntry("event", { type: "turn.failed", turnId: "t1", error: { name: "GatewayError", message: "all providers failed" } }, at);
    expect(rowsOf(failed, 1)[0]).toEqual(expect.objectContaining({ kind: "turn.failed", error: "GatewayError: all providers failed" }));
    const done = createEntry("event", { type: "turn.done", turnId: "t1", steps: 3, totalUsage: { inputTokens: 300, outputTokens: 60, totalTokens: 360 } as never }, at);
    expect(kinds(done)).toEqual([["turn.done", "turn done", "3 steps, in 300 / out 60 tokens"]]);
    const compact = createEntry("ishiki.compact", { summary: "we talked", lastEntryId: "e9" }, at);
    expect(kinds(compact)).toEqual([["compact", "compaction", "covers the stream up to e9"]]);
    const deleted = createEntry("message", createCustomMessage("ishiki.message.deleted", { timestamp: 1, platform: "sandbox", selfId: "k", channelId: "@a", messageId: "m1", operatorId: "a" }), at);
    expect(kinds(deleted)).toEqual([["message.deleted", "message deleted", "#m1 by a"]]);
    expect(kinds(createEntry("my.entry" as never, { x: 1 } as never, at))).toEqual([["other", "my.entry", undefined]]);
  });

  it("folds a long section at FOLD_CHARS and keeps its whole length", () => {
    const long = "x".repeat(FOLD_CHARS * 3);
    const [row] = foldRows(rowsOf(createEntry("message", createUserMessage(long), at), 1));
    expect(row.sections[0]).toEqual({ label: "content", text: "x".repeat(FOLD_CHARS), length: FOLD_CHARS * 3 });
  });

  it("tokens today: every model call (turn steps and side requests) since the UTC day began; the last turn's outcome and error", () => {
    const day = Date.UTC(2026, 0, 2);
    const usage = (input: number, output: number) => ({ inputTokens: input, outputTokens: output, totalTokens: input + output }) as never;
    const step = (at: number, input: number, output: number) => createEntry("message", createAssistantMessage("ok", { usage: usage(input, output) }), { timestamp: at });
    const entries = [
      step(day - 1, 900, 100),
      step(day, 30, 10),
      createEntry("ishiki.usage", { purpose: "context:standard", model: "mock:m", usage: usage(1, 1) }, { timestamp: day + 1 }),
      createEntry("event", { type: "turn.done", turnId: "b", steps: 1, totalUsage: usage(30, 10) }, { timestamp: day + 5 }),
      createEntry("event", { type: "turn.failed", turnId: "d", error: { name: "Error", message: "boom" } }, { timestamp: day + 9 }),
    ];
    expect(summarize(entries, day)).toEqual({ tokensToday: 42, facts: 5, lastTurn: { outcome: "failed", at: day + 9, error: "Error: boom" } });
    expect(summarize([], day)).toEqual({ tokensToday: 0, facts: 0 });
  });

  it("side requests and context resets", () => {
    const side = createEntry("ishiki.usage", { purpose: "wakeup:judge", model: "mock:judge", usage: { inputTokens: 50, outputTokens: 2, totalTokens: 52 } as never }, at);
    expect(kinds(side)).toEqual([["model", "model call for wakeup:judge", "mock:judge · in 50 / out 2 tokens"]]);
    expect(kinds(createEntry("ishiki.reset", { by: "sandbox:alice" }, at))).toEqual([["compact", "context reset", "by sandbox:alice"]]);
  });
});
