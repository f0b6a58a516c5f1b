import type { LanguageModelV4CallOptions, ProviderV4 } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { Service, type Context } from "koishi";
import { afterEach, describe, expect, it } from "vitest";
import { createEntry, type Agent, type AgentEntry } from "@yesimagent/core";
import { WakeupDecisionRing } from "../src/engines/index.js";
import { WakeupEngine, wakeupEnvironment, type WakeupEngineInstance } from "../src/index.js";
import { previewWakeup } from "../src/runtime/index.js";
import type { IshikiMessageCreated } from "../src/types/index.js";
import { channel, fact, labels, readEvents, startActive, until, type KernelApp } from "./runtime-app.js";
import { usage } from "../../core/test/agent-support.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const CHANNEL = "mock:bot/c1";
const turns = (entries: readonly AgentEntry[]) => labels(entries).filter((label) => label === "turn.start").length;

/** A recorded stream: one created fact per `[text, at]`, plus `extra` entries (state changes) merged by time. */
function recorded(messages: Array<[string, number]>, extra: AgentEntry[] = []): AgentEntry[] {
  const facts = messages.map(([content, at], index) => {
    const data: IshikiMessageCreated = { timestamp: at, platform: "mock", selfId: "bot", channelId: "c1", isDirect: false, messageId: `r${index}`, content, user: { id: "u1", name: "Alice" } };
    return createEntry("message", { id: `r${index}`, timestamp: at, role: "custom", type: "ishiki.message.created", data }, { timestamp: at }) as AgentEntry;
  });
  return [...facts, ...extra].sort((left, right) => left.timestamp - right.timestamp);
}

describe("the decision ring (issue 22)", () => {
  it("keeps the newest decisions up to its capacity, stamped with the clock and the engine", () => {
    let now = 0;
    const ring = new WakeupDecisionRing("standard", () => now, 3);
    for (let seq = 1; seq <= 5; seq += 1) {
      now = seq * 10;
      ring.push({ outcome: "quiet", rule: "none", seq });
    }
    expect(ring.list()).toEqual([30, 40, 50].map((at) => ({ at, engine: "standard", outcome: "quiet", rule: "none", seq: at / 10 })));
  });
});

describe("built-in engines report their decisions (issue 22)", () => {
  it("v3 reports the score, the probability and the draw of each fact", async () => {
    kernel = await startActive("p", { profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "v3" } } } });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    await runtime.deliver(fact("hello"));
    await runtime.deliver(fact('<at id="bot"/> hi'));
    await until(() => runtime.wakeup.decisions().length === 2);
    const [plain, mention] = runtime.wakeup.decisions();
    expect(plain).toMatchObject({ engine: "v3", outcome: "quiet", rule: "willingness", channel: CHANNEL, detail: expect.stringMatching(/^score 12\.00 ≤ threshold 55$/) });
    expect(mention).toMatchObject({ engine: "v3", rule: "willingness", detail: expect.stringMatching(/score \d+\.\d\d > 55, p \d\.\d{3}, draw \d\.\d{3}/) });
  });

  it("judge in a preview: rules only without a model budget, the judge's answers within it", async () => {
    const calls: LanguageModelV4CallOptions[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        calls.push(options);
        return { content: [{ type: "text", text: '{"addressed":0.9,"interested":0.2,"others":0.1}' }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      },
    });
    kernel = await startActive("p", { profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "judge", judge: { model: "judge:j", cooldownMs: 0 } } } } });
    kernel.app.ishiki.gateway.defineApi("judging", (): ProviderV4 => ({ specificationVersion: "v4", languageModel: () => model }) as unknown as ProviderV4);
    kernel.app.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted" }, judge: { api: "judging" } } });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    const provider = kernel.app.get("ishiki.engine.wakeup.judge") as WakeupEngine;
    const t0 = Date.UTC(2026, 10, 20, 9);
    const entries = recorded([["anyone here?", t0], ['<at id="bot"/> you there?', t0 + 60_000], ["what about lunch", t0 + 120_000], ["and dinner", t0 + 180_000]]);
    const section = { engine: "judge", judge: { model: "judge:j", cooldownMs: 0 } };
    const rulesOnly = await previewWakeup({ provider, section, host: runtime.host, entries, channel: CHANNEL, since: 0, modelCalls: 0 });
    expect(calls).toHaveLength(0);
    expect(rulesOnly.messages.map((message) => [message.wouldWake, message.decisions.at(-1)?.rule])).toEqual([[false, "judge"], [true, "atSelf"], [false, "judge"], [false, "judge"]]);
    expect(rulesOnly.messages[0].decisions[0].detail).toMatch(/budget is spent/);
    const judged = await previewWakeup({ provider, section, host: runtime.host, entries, channel: CHANNEL, since: 0, modelCalls: 2 });
    expect(calls).toHaveLength(2);
    expect(judged.modelCallsUsed).toBe(2);
    expect(judged.messages.map((message) => message.wouldWake)).toEqual([true, true, true, false]);
    expect(judged.messages[0].decisions.at(-1)?.detail).toMatch(/answer .*"addressed":0.9.* → 0\.90 ≥ threshold 0\.5/);
    // Nothing of the preview reached the fact stream.
    expect(turns(await readEvents(runtime.home))).toBe(0);
  });

  it("a preview replays the owner's recorded mutes", async () => {
    kernel = await startActive("p", { profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "standard" } } } });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    const provider = kernel.app.get("ishiki.engine.wakeup.standard") as WakeupEngine;
    const t0 = Date.UTC(2026, 10, 20, 9);
    const mute = createEntry("state", { version: 1, ishikiMutes: { [CHANNEL]: t0 + 150_000 } } as never, { timestamp: t0 + 30_000 }) as AgentEntry;
    const entries = recorded([['<at id="bot"/> one', t0], ['<at id="bot"/> two', t0 + 60_000], ['<at id="bot"/> three', t0 + 200_000]], [mute]);
    const preview = await previewWakeup({ provider, section: { engine: "standard", standard: { debounceMs: 0 } }, host: runtime.host, entries, channel: CHANNEL, since: 0, modelCalls: 0 });
    expect(preview.messages.map((message) => [message.wouldWake, message.decisions.at(-1)?.rule])).toEqual([[true, "atSelf"], [false, "mute"], [true, "atSelf"]]);
  });
});

/** A third-party engine: wakes on every fact and reports it through the family's optional contract. */
class EveryFactEngine extends WakeupEngine<never> {
  public constructor(ctx: Context) {
    super(ctx, "every" as never);
  }

  public [Service.invoke](): WakeupEngineInstance {
    return {
      attach(agent: Agent) {
        return agent.channel.subscribe("agent", (event) => {
          if (event.type !== "message.appended" || event.message.role !== "custom") return;
          wakeupEnvironment(agent).report({ outcome: "wake", rule: "every", seq: event.seq });
          agent.continue();
        });
      },
    };
  }
}

describe("the owner's mute holds for any engine (issue 22)", () => {
  it("a third-party engine never sees a muted channel's facts; its own reports land in the ring", async () => {
    kernel = await startActive("p", {
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "every" } } },
      setup: (app) => app.plugin(EveryFactEngine),
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    await runtime.wakeup.mutes.mute(CHANNEL, Date.now() + 60_000);
    await runtime.deliver(fact("muted one"));
    await until(() => runtime.wakeup.decisions().length === 1);
    await runtime.agent.wait();
    expect(turns(await readEvents(runtime.home))).toBe(0);
    expect(runtime.wakeup.decisions()[0]).toMatchObject({ engine: "every", outcome: "quiet", rule: "mute" });
    expect(await runtime.wakeup.mutes.unmute(CHANNEL)).toBe(true);
    await runtime.deliver(fact("heard"));
    await until(async () => turns(await readEvents(runtime.home)) === 1);
    expect(runtime.wakeup.decisions().at(-1)).toMatchObject({ engine: "every", outcome: "wake", rule: "every" });
    // The mute and the unmute are state facts of the stream.
    expect((await readEvents(runtime.home)).filter((entry) => entry.type === "state").map((entry) => Object.keys((entry.data as { ishikiMutes?: object }).ishikiMutes ?? {}))).toEqual([[CHANNEL], []]);
  });
});
