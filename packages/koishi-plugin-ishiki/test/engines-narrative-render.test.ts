import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createAssistantMessage, createCustomMessage, createToolMessage, createUserMessage, type AgentMessage } from "@yesimagent/core";
import { renderNarrative } from "../src/engines/context/narrative-render.js";
import type { ChannelDomain, CrossDomain } from "../src/extension/index.js";
import { NARRATIVE_MARKER } from "../src/engines/shared/narrative-marker.js";
import { createNarrativeModel } from "../src/engines/toolcall/narrative-model.js";
import type { IshikiMessageCreated } from "../src/types/index.js";
import { scriptedModel } from "../../core/test/agent-support.js";

const at = (minute: number): number => new Date(2026, 10, 30, 9, minute).getTime();
const domain: ChannelDomain = { mode: "channel", platform: "qq", selfId: "bot", channelId: "g1", guildId: "G", isDirect: false };

function said(minute: number, content: string, extra: Partial<IshikiMessageCreated> = {}): AgentMessage {
  return createCustomMessage(
    "ishiki.message.created",
    { timestamp: at(minute), platform: "qq", selfId: "bot", channelId: "g1", isDirect: false, messageId: `m${minute}`, content, user: { id: "u1", name: "Alice" }, ...extra },
    { timestamp: at(minute) },
  );
}

function step(minute: number, name: string, input: unknown, output: unknown): AgentMessage[] {
  return [
    createAssistantMessage([{ type: "reasoning", text: "private" }, { type: "tool-call", toolCallId: `c${minute}`, toolName: name, input }], { timestamp: at(minute) }),
    createToolMessage([{ type: "tool-result", toolCallId: `c${minute}`, toolName: name, output: output as never }], { timestamp: at(minute) }),
  ];
}

const textOf = (message: AgentMessage): string => (message.role === "user" && typeof message.content === "string" ? message.content : `<${message.role}:${message.role === "custom" ? message.type : ""}>`);

describe("narrative rendering (EN-21)", () => {
  it("EN-21 scene, cast and story lines: says, quotes, retractions, the bot's sends, tool use, failures; latest after the last step", () => {
    const messages: AgentMessage[] = [
      said(1, "hi all"),
      said(2, "look", { user: { id: "u2", name: "Bob" }, quote: { id: "m0", content: "earlier\ntext", user: { id: "bot", name: "Bot" } } }),
      createCustomMessage("ishiki.message.deleted", { timestamp: at(3), platform: "qq", selfId: "bot", channelId: "g1", messageId: "m2", userId: "u2", operatorId: "u2" }, { timestamp: at(3) }),
      ...step(4, "send_message", { messages: ["hello", "twice"] }, { type: "json", value: { ok: true, ids: ["1"] } }),
      ...step(5, "weather", { city: "Paris" }, { type: "text", value: "sunny\n21 C" }),
      ...step(6, "send_message", { messages: ["oops"] }, { type: "json", value: { ok: false, error: { name: "Error", message: "offline" }, sent: [], failedAt: 0 } }),
      said(7, "thanks"),
      createUserMessage("Wait ended: a new message arrived.", { timestamp: at(8) }),
    ];
    const [message] = renderNarrative(messages, domain, at(9));
    expect(textOf(message).split("\n")).toEqual([
      NARRATIVE_MARKER,
      "<scene>",
      "platform: qq",
      "channel: g1 (group chat in guild G)",
      "local time: 2026-11-30 09:09 (Monday)",
      "</scene>",
      "<cast>",
      '- you: the bot (id bot); lines saying "You" are yours',
      "- Alice(u1)",
      "- Bob(u2)",
      "</cast>",
      "<story>",
      "-- 2026-11-30 --",
      '[09:01] Alice(u1) says: "hi all"',
      '[09:02] Bob(u2), replying to you ("earlier text"), says: "look"',
      "[09:03] Bob(u2) retracted their message #m2",
      '[09:04] You said: "hello"',
      '[09:04] You said: "twice"',
      "[09:05] You used weather: sunny 21 C",
      '[09:06] You said: "oops"',
      '[09:06] Your message could not be sent: {"ok":false,"error":{"name":"Error","message":"offline"},"sent":[],"failedAt":0}',
      "</story>",
      "<latest>",
      '[09:07] Alice(u1) says: "thanks"',
      "[09:08] Note to you: Wait ended: a new message arrived.",
      "</latest>",
    ]);
  });

  it("EN-21 EN-8 catalogs stay before the story message, attachment records follow it; nothing else is shown", () => {
    const catalog = createCustomMessage("ishiki.tools.catalog", { version: 1, kind: "baseline", mode: "direct", added: [], removed: [], visible: [], text: "catalog" });
    const attachment = createCustomMessage("ishiki.attachment", { source: "platform", platform: "qq", selfId: "bot", channelId: "g1", messageId: "m1", items: [] });
    const out = renderNarrative([said(1, '<img src="asset://a"/>'), attachment, catalog, said(2, "x")], domain, at(3));
    expect(out.map(textOf).map((text) => (text.startsWith(NARRATIVE_MARKER) ? "story" : text))).toEqual(["<custom:ishiki.tools.catalog>", "story", "<custom:ishiki.attachment>"]);
    expect(out[0]).toBe(catalog);
    expect(out[2]).toBe(attachment);
    expect(renderNarrative([catalog], domain, at(3))).toEqual([catalog]);
  });

  it("EN-21 EN-11 cross mode names the platforms and heads each run of lines with its channel", () => {
    const cross: CrossDomain = { mode: "cross", accounts: { "qq:bot": ["*"] } };
    const out = renderNarrative(
      [said(1, "a"), said(2, "b", { channelId: "g2" }), ...step(3, "send_message", { messages: ["c"], target: { sid: "qq:bot", channelId: "g1" } }, { type: "json", value: { ok: true, ids: [] } })],
      cross,
      at(4),
    );
    const text = textOf(out[0]);
    expect(text).toContain("platforms: qq:bot\nchannels: several;");
    expect(text).toContain('[#qq:bot/g1]\n[09:01] Alice(u1) says: "a"\n[#qq:bot/g2]\n[09:02] Alice(u1) says: "b"\n[#qq:bot/g1]\n[09:03] You said: "c"');
  });
});

describe("narrative model (EN-42)", () => {
  const story: LanguageModelV4CallOptions = {
    prompt: [
      { role: "system", content: "You are Mika." },
      { role: "user", content: [{ type: "text", text: `${NARRATIVE_MARKER}\n<story>\n(nothing yet)\n</story>` }] },
    ],
    tools: [{ type: "function", name: "send_message", description: "Send messages.", inputSchema: { type: "object" } }],
  };

  it("EN-42 doGenerate and doStream give the same narration, call, finish reason and summed usage", async () => {
    const make = () => {
      const roles = scriptedModel([{ text: "You wave.\nDECISION: reply" }, { text: "hey" }]);
      const logger = { debug: () => undefined, warn: () => undefined };
      return createNarrativeModel(roles, { roles: { narrator: () => roles, replyer: () => roles, decoder: () => roles }, maxNarrationTokens: 100, replyStyle: "", cross: false, logger });
    };
    const generated = await make().doGenerate(story);
    expect(generated.content).toEqual([{ type: "reasoning", text: "You wave." }, expect.objectContaining({ type: "tool-call", toolName: "send_message", input: '{"messages":["hey"]}' })]);
    expect(generated.finishReason.unified).toBe("tool-calls");
    expect(generated.usage.inputTokens.total).toBe(6);
    expect(generated.usage.outputTokens.total).toBe(4);

    const { stream } = await make().doStream(story);
    const parts: LanguageModelV4StreamPart[] = [];
    for await (const part of stream) parts.push(part);
    expect(parts.map((part) => part.type)).toEqual(["stream-start", "reasoning-start", "reasoning-delta", "reasoning-end", "tool-call", "finish"]);
    expect(parts[2]).toMatchObject({ delta: "You wave." });
    expect(parts.at(-1)).toMatchObject({ finishReason: { unified: "tool-calls" }, usage: generated.usage });
  });

  it("EN-42 in cross mode a reply goes through the decoder, forced to send_message so it can name the target", async () => {
    const roles = scriptedModel([{ text: "DECISION: reply" }, { calls: [{ id: "s", name: "send_message", input: { messages: ["hey"], target: { sid: "qq:bot", channelId: "g1" } } }] }]);
    const logger = { debug: () => undefined, warn: () => undefined };
    const model = createNarrativeModel(roles, { roles: { narrator: () => roles, replyer: () => roles, decoder: () => roles }, maxNarrationTokens: 100, replyStyle: "", cross: true, logger });
    const result = await model.doGenerate(story);
    expect(roles.prompts[1].toolChoice).toEqual({ type: "tool", toolName: "send_message" });
    expect(result.content).toEqual([expect.objectContaining({ type: "tool-call", toolCallId: "s", toolName: "send_message" })]);
  });
});
