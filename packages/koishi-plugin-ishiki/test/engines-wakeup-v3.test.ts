import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentEntry } from "@yesimagent/core";
import { v3WakeupBlock } from "../src/engines/wakeup/v3-block.js";
import { V3WakeupEngine } from "../src/engines/wakeup/index.js";
import { decayWillingness, raiseWillingness, wakeProbability } from "../src/engines/wakeup/v3-willingness.js";
import { channel, fact, labels, readEvents, startActive, type KernelApp } from "./runtime-app.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  vi.restoreAllMocks();
});

const defaults = v3WakeupBlock.parse({});
const none = { atMention: false, isQuote: false, isDirectMessage: false, keyword: false };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const turns = (entries: readonly AgentEntry[]) => labels(entries).filter((label) => label === "turn.start").length;

/** The draw and the clock the engine sees, set by each test. */
const chance = { draw: 0.5, clock: Date.UTC(2026, 10, 30) };
async function start(v3: Record<string, unknown> = {}) {
  kernel = await startActive("p", {
    profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "v3", v3 } } },
  });
  // The built-in service draws and reads the clock through these methods; the test steers both.
  const engine = kernel.app.get("ishiki.engine.wakeup.v3") as V3WakeupEngine as unknown as { random(): number; now(): number };
  vi.spyOn(engine, "random").mockImplementation(() => chance.draw);
  vi.spyOn(engine, "now").mockImplementation(() => chance.clock);
  const runtime = await kernel.app.ishiki.runtime("p", channel);
  return {
    runtime,
    async deliver(content: string, overrides = {}) {
      await runtime.deliver(fact(content, overrides));
      await sleep(20);
      await runtime.agent.wait();
      return turns(await readEvents(runtime.home));
    },
  };
}

describe("v3 willingness arithmetic (EN-31 .. EN-34)", () => {
  it("EN-31 defaults and bounds of the block", () => {
    expect(defaults).toEqual({ base: 12, atMention: 100, isQuote: 15, isDirectMessage: 40, keywords: [], keywordMultiplier: 1.2, defaultMultiplier: 1, maxWillingness: 100, decayHalfLifeSeconds: 600, probabilityThreshold: 55, probabilityAmplifier: 0.04, replyCost: 35 });
    expect(v3WakeupBlock.safeParse({ maxWillingness: 0 }).success).toBe(false);
    expect(v3WakeupBlock.safeParse({ decayHalfLifeSeconds: 0.5 }).success).toBe(false);
    expect(v3WakeupBlock.safeParse({ replyCost: -1 }).success).toBe(false);
  });

  it("EN-32 decay: half-life doubled above the threshold, plain at or below it, tiny scores drop to 0", () => {
    const options = { ...defaults, decayHalfLifeSeconds: 10, probabilityThreshold: 50 };
    expect(decayWillingness(40, 10, options)).toBeCloseTo(20, 10);
    expect(decayWillingness(100, 20, options)).toBeCloseTo(50, 10);
    // 100 → 50 takes 20 s at the slow rate, then 10 s at the fast rate halves it again.
    expect(decayWillingness(100, 30, options)).toBeCloseTo(25, 10);
    expect(decayWillingness(0.015, 10, options)).toBe(0);
    expect(decayWillingness(100, 0, options)).toBe(100);
  });

  it("EN-33 gain: sum of signals times multiplier, damped by (1 − r²)·m(r), capped at the maximum", () => {
    expect(raiseWillingness(0, none, defaults)).toBeCloseTo(12, 10);
    expect(raiseWillingness(0, { ...none, keyword: true }, defaults)).toBeCloseTo(14.4, 10);
    expect(raiseWillingness(0, { atMention: true, isQuote: true, isDirectMessage: true, keyword: false }, defaults)).toBe(100);
    // r = 0.5: m = 1 + 0.3·0.3/0.09 = 2, (1 − 0.25) = 0.75 → gain 12 · 1.5 = 18.
    expect(raiseWillingness(50, none, defaults)).toBeCloseTo(68, 10);
    // r = 0.9: m = 0.1/0.2 = 0.5, (1 − 0.81) = 0.19 → gain 12 · 0.095 = 1.14.
    expect(raiseWillingness(90, none, defaults)).toBeCloseTo(91.14, 10);
    expect(raiseWillingness(100, none, defaults)).toBe(100);
  });

  it("EN-34 probability: 0 at or below the threshold, then (score − threshold) × amplifier clamped to 1", () => {
    expect(wakeProbability(55, defaults)).toBe(0);
    expect(wakeProbability(60, defaults)).toBeCloseTo(0.2, 10);
    expect(wakeProbability(100, defaults)).toBe(1);
  });
});

describe("v3 wakeup engine (EN-31 .. EN-34)", () => {
  it("EN-33 EN-34 a mention wakes; plain chatter below the threshold never does, whatever the draw", async () => {
    chance.draw = 0;
    const bot = await start();
    expect(await bot.deliver("just chatting")).toBe(0);
    chance.draw = 0.99;
    expect(await bot.deliver('<at id="bot"/> hello')).toBe(1);
  });

  it("EN-34 the injectable random source decides between threshold and certainty", async () => {
    // A mention gives score 100: p = (100 − 55) × 0.01 = 0.45.
    const bot = await start({ probabilityAmplifier: 0.01, replyCost: 0 });
    chance.draw = 0.9;
    expect(await bot.deliver('<at id="bot"/> one')).toBe(0);
    chance.draw = 0.3;
    expect(await bot.deliver('<at id="bot"/> two')).toBe(1);
  });

  it("EN-34 every turn.done charges replyCost", async () => {
    chance.draw = 0.99;
    const free = await start({ replyCost: 0 });
    expect(await free.deliver('<at id="bot"/> hi')).toBe(1);
    // Still at the maximum: plain chatter wakes again.
    expect(await free.deliver("more chatter")).toBe(2);
    await kernel!.dispose();
    kernel = undefined;
    const costly = await start({ replyCost: 100 });
    expect(await costly.deliver('<at id="bot"/> hi')).toBe(1);
    expect(await costly.deliver("more chatter")).toBe(1);
  });

  it("EN-32 willingness decays with the engine's clock", async () => {
    chance.draw = 0.99;
    const bot = await start({ replyCost: 0 });
    expect(await bot.deliver('<at id="bot"/> hi')).toBe(1);
    chance.clock += 4 * 3600_000;
    expect(await bot.deliver("hours later")).toBe(1);
  });
});
