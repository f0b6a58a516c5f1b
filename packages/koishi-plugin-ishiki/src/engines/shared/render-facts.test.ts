import { describe, expect, it } from "vitest";
import { createAssistantMessage, createCustomMessage, createUserMessage, type AgentMessage } from "@yesimagent/core";
import type { IshikiMessageCreated, IshikiMessageDeleted } from "../../types/index.js";
import { formatStamp } from "./fact-line.js";
import { renderFacts } from "./render-facts.js";

const at = new Date(2026, 10, 30, 9, 5).getTime();

function created(messageId: string, content: string, extra: Partial<IshikiMessageCreated> = {}): AgentMessage {
  return createCustomMessage("ishiki.message.created", { timestamp: at, platform: "qq", selfId: "bot", channelId: "g1", isDirect: false, messageId, content, user: { id: "u1", name: "Alice" }, ...extra });
}

function deleted(messageId: string, extra: Partial<IshikiMessageDeleted> = {}): AgentMessage {
  return createCustomMessage("ishiki.message.deleted", { timestamp: at, platform: "qq", selfId: "bot", channelId: "g1", messageId, ...extra });
}

const text = (message: AgentMessage): string => (message.role === "user" && typeof message.content === "string" ? message.content : `<${message.role}>`);

describe("default fact rendering (EN-10, EN-11)", () => {
  it("EN-10 renders [MM-DD HH:mm] Name(id) #messageId: content in host local time", () => {
    expect(formatStamp(at)).toBe("11-30 09:05");
    const [line] = renderFacts([created("m1", "<at id=\"bot\"/> hi")], { cross: false });
    expect(text(line)).toBe('[11-30 09:05] Alice(u1) #m1: <at id="bot"/> hi');
  });

  it("EN-10 shows the id alone when the name is missing", () => {
    const [line] = renderFacts([created("m1", "x", { user: { id: "u9", name: "" } })], { cross: false });
    expect(text(line)).toBe("[11-30 09:05] u9 #m1: x");
  });

  it("EN-10 renders the three kinds of retraction", () => {
    const lines = renderFacts(
      [created("m1", "hello"), deleted("m1", { userId: "u1", operatorId: "u1" }), deleted("m2", { userId: "u1", operatorId: "admin" }), deleted("m3")],
      { cross: false },
    );
    expect(text(lines[0]).split("\n").slice(1)).toEqual([
      "Alice(u1) retracted their message #m1",
      "Alice(u1)'s message #m2 was retracted by admin",
      "A message #m3 was retracted",
    ]);
  });

  it("EN-10 adjacent fact lines merge into one user message; other messages pass unchanged", () => {
    const reply = createAssistantMessage([{ type: "text", text: "ok" }]);
    const prompt = createUserMessage("Continue.");
    const out = renderFacts([created("m1", "a"), created("m2", "b"), reply, prompt, created("m3", "c")], { cross: false });
    expect(out).toHaveLength(4);
    expect(text(out[0]).split("\n")).toHaveLength(2);
    expect(out[1]).toBe(reply);
    expect(out[2]).toBe(prompt);
    expect(text(out[3])).toContain("#m3: c");
  });

  it("EN-8 EN-10 other custom messages (attachments, catalogs) pass through unchanged", () => {
    const catalog = createCustomMessage("ishiki.tools.catalog", { version: 1, kind: "baseline", mode: "direct", added: [], removed: [], visible: [], text: "catalog" });
    const out = renderFacts([created("m1", "a"), catalog, created("m2", "b")], { cross: false });
    expect(out[1]).toBe(catalog);
    expect(out).toHaveLength(3);
  });

  it("EN-10 rendering is deterministic: the merged message keeps its first fact's id and timestamp", () => {
    const input = [created("m1", "a"), created("m2", "b")];
    expect(renderFacts(input, { cross: false })).toEqual(renderFacts(input, { cross: false }));
    expect(renderFacts(input, { cross: false })[0].id).toBe(input[0].id);
  });

  it("EN-11 cross mode starts each run of lines from one channel with its head", () => {
    const out = renderFacts([created("m1", "a"), created("m2", "b"), created("m3", "c", { channelId: "g2" }), created("m4", "d")], { cross: true });
    expect(text(out[0]).split("\n").map((line) => line.replace(/^\[11-30 09:05\] /, ""))).toEqual([
      "[#qq:bot/g1]",
      "Alice(u1) #m1: a",
      "Alice(u1) #m2: b",
      "[#qq:bot/g2]",
      "Alice(u1) #m3: c",
      "[#qq:bot/g1]",
      "Alice(u1) #m4: d",
    ]);
  });
});
