// v3 and text-protocol engines (spec 06 EN-18, EN-19, EN-40, EN-41): the v3 context engine's per-step overhead
// (window + world-state rendering) at 100 and 10,000 history entries, the v3 answer parser, and one streamed model
// call through the v3 and hermes toolcall middleware (3-character chunks, a mock model that answers at once).
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { createAssistantMessage, createCustomMessage, createEntry, createToolMessage, createUserMessage, type AgentEntry, type AgentMessage } from "@yesimagent/core";
import { v3Window } from "../../src/engines/context/v3-window.js";
import { renderWorldState } from "../../src/engines/context/v3-world-state.js";
import { TextProtocolToolcallInstance } from "../../src/engines/toolcall/text-protocol-instance.js";
import { V3ToolcallInstance } from "../../src/engines/toolcall/v3.js";
import { parseV3Answer } from "../../src/engines/toolcall/v3-parse.js";
import "../../src/types/index.js";

interface Row {
  measure: string;
  value: number | string;
  unit: string;
  target?: string;
}

const quiet = { debug() {}, info() {} };
const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };
const domain = { mode: "channel", platform: "qq", selfId: "bot", channelId: "g1", isDirect: false } as const;

function history(turns: number): AgentEntry[] {
  const entries: AgentEntry[] = [];
  for (let i = 0; i < turns; i += 1) {
    const turnId = `t${i}`;
    const fact = createCustomMessage("ishiki.message.created", { timestamp: i * 1000, platform: "qq", selfId: "bot", channelId: "g1", isDirect: false, messageId: `m${i}`, content: `message number ${i} with some words`, user: { id: `u${i % 7}`, name: `User ${i % 7}` } });
    entries.push(createEntry("message", fact), createEntry("message", createUserMessage("Continue."), { turnId }));
    entries.push(createEntry("message", createAssistantMessage([{ type: "tool-call", toolCallId: `c${i}`, toolName: "send_message", input: { messages: [`reply ${i}`] } }]), { turnId }));
    entries.push(createEntry("message", createToolMessage([{ type: "tool-result", toolCallId: `c${i}`, toolName: "send_message", output: { type: "json", value: { ok: true, ids: [`s${i}`] } } }]), { turnId }));
  }
  return entries;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(runs: number, body: () => unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await body();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function chunked(text: string): LanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async () => {
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }];
      for (let i = 0; i < text.length; i += 3) parts.push({ type: "text-delta", id: "t", delta: text.slice(i, i + 3) });
      parts.push({ type: "text-end", id: "t" }, { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
      return { stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  });
}

async function streamCall(model: LanguageModelV4): Promise<void> {
  const result = await model.doStream({
    prompt: [{ role: "system", content: "base" }, { role: "user", content: [{ type: "text", text: "hi" }] }],
    tools: [{ type: "function", name: "send_message", inputSchema: { type: "object", properties: { messages: { type: "array", items: { type: "string" } } }, required: ["messages"] } }],
  });
  await result.stream.pipeTo(new WritableStream());
}

export default async function bench(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const turns of [25, 2500]) {
    const entries = history(turns);
    const step = () => {
      const kept = v3Window(entries, { maxMessages: 50, keepFullTurnCount: 2 });
      renderWorldState(kept.flatMap((entry) => (entry.type === "message" ? [entry.data as AgentMessage] : [])), domain);
    };
    rows.push({ measure: `v3 context step, ${entries.length} entries (window 50)`, value: Number((await time(200, step)).toFixed(3)), unit: "ms (median)" });
  }
  const answer = '```json\n{"thoughts": {"observe": "a", "analyze_infer": "b", "plan": "c"}, "actions": [{"function": "send_message", "params": {"messages": ["hello", "world"]}}]}\n```';
  rows.push({ measure: "v3 answer parse (fenced, valid)", value: Number((await time(2000, () => parseV3Answer(answer))).toFixed(4)), unit: "ms (median)" });
  rows.push({ measure: "v3 answer parse (needs jsonrepair)", value: Number((await time(2000, () => parseV3Answer("{thoughts: {plan: 'x'}, actions: [{function: 'send_message', params: {messages: ['a',],},},]"))).toFixed(4)), unit: "ms (median)" });
  const v3 = new V3ToolcallInstance(quiet).wrap(chunked(answer));
  rows.push({ measure: "v3 toolcall streamed call (3-char chunks)", value: Number((await time(300, () => streamCall(v3))).toFixed(3)), unit: "ms (median)" });
  const hermes = new TextProtocolToolcallInstance("hermes", quiet).wrap(chunked('Sure. <tool_call>{"name": "send_message", "arguments": {"messages": ["hello", "world"]}}</tool_call>'));
  rows.push({ measure: "hermes toolcall streamed call (3-char chunks)", value: Number((await time(300, () => streamCall(hermes))).toFixed(3)), unit: "ms (median)" });
  return rows;
}
