import { afterEach, describe, expect, it, vi } from "vitest";
import { Context, Logger } from "koishi";
import { createAgent, createMemoryStorage, type AgentEntry } from "@yesimagent/core";
import { StandardWakeupEngine } from "../src/engines/wakeup/index.js";
import type { ExtensionHost } from "../src/extension/index.js";
import { attachWakeup } from "../src/runtime/wakeup-attach.js";
import { previewWakeup } from "../src/runtime/index.js";
import { scriptedModel } from "../../core/test/agent-support.js";
import { busyWeek, type WeekMessage } from "./fixtures/busy-week.js";

afterEach(() => {
  vi.useRealTimers();
});

const CHANNEL = "mock:bot/c1";
const quiet = new Logger("ishiki.test");
quiet.level = 0;
const host = { runtimeId: "p/mock:bot/c1", logger: quiet } as unknown as ExtensionHost;
const engine = new StandardWakeupEngine(new Context());

/** Runs the real standard engine on a real agent over `week` with a fake clock; returns the stored stream. */
async function live(week: readonly WeekMessage[], standard: Record<string, unknown>): Promise<AgentEntry[]> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: week[0].at });
  const storage = createMemoryStorage();
  const agent = createAgent({ id: "live", model: scriptedModel([{ text: "ok" }]), storage });
  await agent.init();
  const instance = engine[StandardWakeupEngine.invoke](host, { engine: "standard", standard });
  const attached = attachWakeup(agent, instance, { engine: "standard" });
  for (const message of week) {
    await vi.advanceTimersByTimeAsync(message.at - Date.now());
    await agent.wait();
    agent.send({ id: message.data.messageId, timestamp: message.at, role: "custom", type: "ishiki.message.created", data: message.data }, { trigger: false, ifBusy: "join" });
    await agent.wait();
  }
  await vi.advanceTimersByTimeAsync(24 * 3_600_000);
  await agent.wait();
  attached.detach();
  await agent.stop();
  vi.useRealTimers();
  return storage.read();
}

function turnsFor(entries: readonly AgentEntry[]): string[] {
  const ids: string[] = [];
  let newest: string | undefined;
  for (const entry of entries) {
    if (entry.type === "message" && entry.data.role === "custom" && entry.data.type === "ishiki.message.created") newest = entry.data.data.messageId;
    else if (entry.type === "event" && entry.data.type === "turn.start" && newest !== undefined) ids.push(newest);
  }
  return ids;
}

describe("policy preview over a recorded week (issue 22)", () => {
  const week = busyWeek();

  it("the fixture is a busy week: thousands of messages, mentions, quotes and the keyword", () => {
    expect(week.length).toBeGreaterThan(2000);
    expect(week.filter((message) => message.data.content.includes('<at id="bot"/>')).length).toBeGreaterThan(20);
    expect(week.filter((message) => message.data.content.includes("开会")).length).toBeGreaterThan(40);
    expect(week.filter((message) => message.data.quote !== undefined).length).toBeGreaterThan(10);
    expect(busyWeek()).toEqual(week);
  });

  it("the standard engine's keyword and debounce rules: preview matches the live engine message by message", async () => {
    const standard = { keywords: ["开会"], debounceMs: 1500, debounceMaxMs: 6000 };
    const recorded = await live(week, standard);
    const liveWakes = turnsFor(recorded);
    expect(liveWakes.length).toBeGreaterThan(30);
    const preview = await previewWakeup({ provider: engine, section: { engine: "standard", standard }, host, entries: recorded, channel: CHANNEL, since: 0, modelCalls: 0 });
    expect(preview.messages).toHaveLength(week.length);
    const mismatches = preview.messages.filter((message) => message.wouldWake !== message.woke).map((message) => message.messageId);
    expect(mismatches).toEqual([]);
    expect(preview.messages.filter((message) => message.wouldWake).map((message) => message.messageId)).toEqual(liveWakes);
    // Every message got a reason; a keyword message names its keyword.
    expect(preview.messages.every((message) => message.decisions.length > 0)).toBe(true);
    const keyword = preview.messages.find((message) => message.content.includes("开会"));
    expect(keyword?.decisions[0]).toMatchObject({ engine: "standard", outcome: "held", rule: "debounce", detail: expect.stringContaining("keyword:开会") });
  }, 120_000);

  it("other settings over the same week differ from what happened, and the cooldown and cap rules match live too", async () => {
    const standard = { keywords: ["开会"], debounceMs: 4000, debounceMaxMs: 10_000, cooldownMs: 600_000, maxTurnsPerHour: 2 };
    const recorded = await live(week, standard);
    const preview = await previewWakeup({ provider: engine, section: { engine: "standard", standard }, host, entries: recorded, channel: CHANNEL, since: 0, modelCalls: 0 });
    expect(preview.messages.filter((message) => message.wouldWake !== message.woke)).toEqual([]);
    const rules = new Set(preview.messages.flatMap((message) => message.decisions.map((decision) => decision.rule)));
    expect(rules).toContain("cooldown");
    // Without the keyword, the same recorded week wakes only on mentions and quotes.
    const narrower = await previewWakeup({ provider: engine, section: { engine: "standard", standard: { ...standard, keywords: [] } }, host, entries: recorded, channel: CHANNEL, since: 0, modelCalls: 0 });
    const count = (list: typeof preview.messages) => list.filter((message) => message.wouldWake).length;
    expect(count(narrower.messages)).toBeLessThan(count(preview.messages));
  }, 120_000);
});
