// Narrative engines (spec 06 EN-21, EN-42): the context engine's window and rendering of a 10,000-entry
// history at the default 60 story messages, and the toolcall engine's own cost per agent call on the reply
// path (narrator + replyer) over instantly answering role models.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import { createAssistantMessage, createCustomMessage, createEntry, createToolMessage, type AgentEntry, type AgentMessage } from "@yesimagent/core";
import { narrativeWindow } from "../../src/engines/context/narrative.js";
import { renderNarrative } from "../../src/engines/context/narrative-render.js";
import { NARRATIVE_MARKER } from "../../src/engines/shared/narrative-marker.js";
import { createNarrativeModel } from "../../src/engines/toolcall/narrative-model.js";

const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 2, text: 2, reasoning: 0 } };

function history(size: number): AgentEntry[] {
  const entries: AgentEntry[] = [];
  for (let i = 0; i < size; i += 1) {
    const timestamp = Date.UTC(2026, 10, 30) + i * 1000;
    let message: AgentMessage;
    if (i % 10 === 8) message = createAssistantMessage([{ type: "tool-call", toolCallId: `c${i}`, toolName: "send_message", input: { messages: [`reply ${i}`] } }], { timestamp });
    else if (i % 10 === 9) message = createToolMessage([{ type: "tool-result", toolCallId: `c${i - 1}`, toolName: "send_message", output: { type: "json", value: { ok: true, ids: [] } } }], { timestamp });
    else message = createCustomMessage("ishiki.message.created", { timestamp, platform: "qq", selfId: "bot", channelId: "g1", isDirect: false, messageId: `m${i}`, content: `message number ${i} with some words in it`, user: { id: `u${i % 7}`, name: `User ${i % 7}` } }, { timestamp });
    entries.push(createEntry("message", message, { timestamp }));
  }
  return entries;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function instantRoles(): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      call += 1;
      const text = call % 2 === 1 ? "You answer.\nDECISION: reply" : "hello";
      const chunks: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: text },
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

export default async function run() {
  const entries = history(10_000);
  const domain = { mode: "channel", platform: "qq", selfId: "bot", channelId: "g1", isDirect: false } as const;
  const renders: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const start = performance.now();
    const kept = narrativeWindow(entries, 60);
    const messages = kept.flatMap((entry) => (entry.type === "message" ? [entry.data] : []));
    renderNarrative(messages, domain, Date.now());
    renders.push(performance.now() - start);
  }

  const roles = instantRoles();
  const model = createNarrativeModel(roles, {
    roles: { narrator: () => roles, replyer: () => roles, decoder: () => roles },
    maxNarrationTokens: 512,
    replyStyle: "",
    cross: false,
    logger: { debug: () => undefined, warn: () => undefined },
  });
  const call: LanguageModelV4CallOptions = {
    prompt: [{ role: "system", content: "You are Mika." }, { role: "user", content: [{ type: "text", text: `${NARRATIVE_MARKER}\n<story>\n(nothing yet)\n</story>` }] }],
    tools: [{ type: "function", name: "send_message", description: "Send messages.", inputSchema: { type: "object" } }],
  };
  const calls: number[] = [];
  for (let i = 0; i < 500; i += 1) {
    const start = performance.now();
    const { stream } = await model.doStream(call);
    for await (const _part of stream);
    calls.push(performance.now() - start);
  }

  return [
    { measure: "window + render, 10,000 entries, 60 story messages (median)", value: Number(median(renders).toFixed(3)), unit: "ms", target: "< 5 ms", pass: median(renders) < 5 },
    { measure: "narrative reply call over instant roles (median)", value: Number(median(calls).toFixed(3)), unit: "ms", target: "< 2 ms", pass: median(calls) < 2 },
  ];
}
