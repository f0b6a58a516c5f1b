import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentEntry } from "@yesimagent/core";
import type { CrossDomain } from "../src/extension/index.js";
import { channel, fact, labels, logged, readEvents, startActive, until, type KernelApp } from "./runtime-app.js";
import { deferred } from "../../core/test/agent-support.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const turns = (entries: readonly AgentEntry[]) => labels(entries).filter((label) => label === "turn.start").length;
const turnStarts = (entries: readonly AgentEntry[]) => entries.filter((entry) => entry.type === "event" && entry.data.type === "turn.start").map((entry) => entry.timestamp);

async function start(standard: Record<string, unknown>) {
  kernel = await startActive("p", { profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "standard", standard } } } });
  return kernel.app.ishiki.runtime("p", channel);
}

async function settle(runtime: { agent: { wait(): Promise<void> } }, ms = 30) {
  await sleep(ms);
  await runtime.agent.wait();
}

const atBot = (text: string, overrides = {}) => fact(`<at id="bot"/> ${text}`, overrides);

describe("standard debounce (EN-27)", () => {
  it("EN-27 a burst of 10 group messages with one hit opens exactly one turn, after the channel went quiet", async () => {
    const runtime = await start({ debounceMs: 300, debounceMaxMs: 5000 });
    for (let index = 0; index < 10; index += 1) {
      await runtime.deliver(index === 3 ? atBot("question") : fact(`chatter ${index}`));
      await sleep(15);
    }
    await until(async () => turns(await readEvents(runtime.home)) === 1);
    await settle(runtime, 200);
    const stored = labels(await readEvents(runtime.home));
    expect(stored.filter((label) => label === "turn.start")).toHaveLength(1);
    // The wake waited for the whole burst: every fact is stored before the turn.
    expect(stored.lastIndexOf("fact")).toBeLessThan(stored.indexOf("turn.start"));
  });

  it("EN-27 several hits merge into one wake", async () => {
    const runtime = await start({ debounceMs: 80 });
    for (let index = 0; index < 4; index += 1) await runtime.deliver(atBot(`hit ${index}`));
    await until(async () => turns(await readEvents(runtime.home)) === 1);
    await settle(runtime, 200);
    expect(turns(await readEvents(runtime.home))).toBe(1);
  });

  it("EN-27 debounceMaxMs wakes while the channel keeps talking", async () => {
    const runtime = await start({ debounceMs: 150, debounceMaxMs: 250 });
    await runtime.deliver(atBot("hello"));
    for (let index = 0; index < 14; index += 1) {
      await sleep(50);
      await runtime.deliver(fact(`still talking ${index}`));
    }
    await settle(runtime);
    const stored = labels(await readEvents(runtime.home));
    expect(stored.filter((label) => label === "turn.start")).toHaveLength(1);
    expect(stored.indexOf("turn.start")).toBeLessThan(stored.lastIndexOf("fact"));
  });

  it("EN-27 debounceMs 0 disables the debounce: the hit wakes at once", async () => {
    const runtime = await start({ debounceMs: 0 });
    await runtime.deliver(atBot("now"));
    await until(async () => turns(await readEvents(runtime.home)) === 1, 100);
  });
});

describe("standard debounce with the pending-hit rule (EN-25, EN-27)", () => {
  async function busy(standard: Record<string, unknown>, firstCalls: Array<{ id: string; name: string; input?: unknown }>) {
    const gate = deferred();
    const entered = deferred();
    kernel = await startActive("p", {
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "standard", standard } } },
      replies: [
        async () => {
          entered.resolve();
          await gate.promise;
          return { calls: firstCalls };
        },
        { calls: [{ id: "f", name: "finish" }] },
      ],
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake("start");
    await entered.promise;
    await runtime.deliver(atBot("while busy"));
    gate.resolve();
    await until(() => runtime.agent.isIdle());
    await settle(runtime, 250);
    return turns(await readEvents(runtime.home));
  }

  it("EN-25 EN-27 a debounced hit that the running turn already read opens no extra turn", async () => {
    expect(await busy({ debounceMs: 100 }, [{ id: "r", name: "read", input: { url: "local://x" } }])).toBe(1);
  });

  it("EN-25 EN-27 a debounced hit the turn never read wakes once the agent is idle", async () => {
    expect(await busy({ debounceMs: 100 }, [{ id: "f0", name: "finish" }])).toBe(2);
  });
});

describe("standard cooldown and hourly cap (EN-28)", () => {
  it("EN-28 a hit inside the cooldown is postponed to its end", async () => {
    // A ten-minute cooldown on a clock the test moves: the order of turns, not the machine's speed, is checked.
    const cooldownMs = 600_000;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], shouldAdvanceTime: true });
    try {
      const runtime = await start({ debounceMs: 0, cooldownMs });
      await runtime.deliver(atBot("first"));
      await until(async () => labels(await readEvents(runtime.home)).includes("turn.done"));
      await runtime.deliver(atBot("second"));
      await sleep(100);
      expect(turns(await readEvents(runtime.home))).toBe(1);
      await vi.advanceTimersByTimeAsync(cooldownMs);
      await until(async () => turns(await readEvents(runtime.home)) === 2);
      const [first, second] = turnStarts(await readEvents(runtime.home));
      // The cooldown runs from the first turn, whose start entry is written a moment after it began.
      expect(second - first).toBeGreaterThanOrEqual(cooldownMs - 10_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("EN-28 maxTurnsPerHour drops hits over the cap; explicit wakes neither count nor are limited", async () => {
    const runtime = await start({ debounceMs: 0, maxTurnsPerHour: 1 });
    runtime.wake("explicit before");
    await settle(runtime);
    await runtime.deliver(atBot("counted"));
    await settle(runtime);
    expect(turns(await readEvents(runtime.home))).toBe(2);
    await runtime.deliver(atBot("over the cap"));
    await settle(runtime, 100);
    expect(turns(await readEvents(runtime.home))).toBe(2);
    expect(logged(kernel!, "wake dropped: 1 turns in the last hour", "debug")).toBe(true);
    runtime.wake("explicit after");
    await settle(runtime);
    expect(turns(await readEvents(runtime.home))).toBe(3);
  });
});

describe("standard mute (EN-29)", () => {
  it("EN-29 an addressed mute keyword mutes the channel; only an addressed unmute keyword wakes and unmutes", async () => {
    const runtime = await start({ debounceMs: 0, muteKeywords: ["shut up"], unmuteKeywords: ["come back"], muteMinutes: 5 });
    const count = async () => turns(await readEvents(runtime.home));
    await runtime.deliver(fact("shut up everyone"));
    await runtime.deliver(atBot("hello"));
    await settle(runtime);
    expect(await count()).toBe(1);
    await runtime.deliver(atBot("please SHUT UP"));
    await settle(runtime);
    expect(await count()).toBe(1);
    expect(logged(kernel!, "channel mock:bot/c1 muted until")).toBe(true);
    await runtime.deliver(atBot("are you there?"));
    await runtime.deliver(fact("come back, bot"));
    await settle(runtime);
    expect(await count()).toBe(1);
    await runtime.deliver(atBot("come back"));
    await settle(runtime);
    expect(await count()).toBe(2);
    await runtime.deliver(atBot("unmuted now"));
    await settle(runtime);
    expect(await count()).toBe(3);
  });

  it("EN-29 ignoreUsers never wake", async () => {
    const runtime = await start({ debounceMs: 0, ignoreUsers: ["u9"] });
    await runtime.deliver(atBot("from a bot", { user: { id: "u9", name: "OtherBot" } }));
    await settle(runtime);
    expect(turns(await readEvents(runtime.home))).toBe(0);
    await runtime.deliver(atBot("from a person"));
    await settle(runtime);
    expect(turns(await readEvents(runtime.home))).toBe(1);
  });
});

describe("standard per-channel state in cross mode (EN-30) and disposal (EN-23)", () => {
  async function cross(standard: Record<string, unknown>) {
    const accounts = { "mock:bot": ["g*"] };
    kernel = await startActive("x", { profiles: { x: { model: "mock:m", mode: "cross", channels: accounts, wakeup: { engine: "standard", standard } } } });
    const domain: CrossDomain = { mode: "cross", accounts };
    return kernel.app.ishiki.runtime("x", domain);
  }

  it("EN-30 chatter in another channel does not hold back a channel's debounce", async () => {
    const runtime = await cross({ debounceMs: 150, debounceMaxMs: 0 });
    await runtime.deliver(atBot("in g1", { channelId: "g1" }));
    for (let index = 0; index < 12; index += 1) {
      await sleep(40);
      await runtime.deliver(fact(`g2 chatter ${index}`, { channelId: "g2" }));
    }
    await settle(runtime);
    const stored = labels(await readEvents(runtime.home));
    expect(stored.filter((label) => label === "turn.start")).toHaveLength(1);
    expect(stored.indexOf("turn.start")).toBeLessThan(stored.lastIndexOf("fact"));
  });

  it("EN-30 a muted channel does not mute the others", async () => {
    const runtime = await cross({ debounceMs: 0, muteKeywords: ["quiet"] });
    await runtime.deliver(atBot("quiet please", { channelId: "g1" }));
    await runtime.deliver(atBot("hello", { channelId: "g1" }));
    await settle(runtime);
    expect(turns(await readEvents(runtime.home))).toBe(0);
    await runtime.deliver(atBot("hello", { channelId: "g2" }));
    await settle(runtime);
    expect(turns(await readEvents(runtime.home))).toBe(1);
  });

  it("EN-23 stopping the runtime cancels a pending debounce", async () => {
    const runtime = await start({ debounceMs: 60 });
    await runtime.deliver(atBot("never answered"));
    await runtime.stop();
    await sleep(150);
    expect(turns(await readEvents(runtime.home))).toBe(0);
  });
});
