import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentEntry } from "@yesimagent/core";
import { finishReply, startOperatingApp, type OperatingApp } from "./operating-app.js";
import { readEvents, until } from "./runtime-app.js";

let kernel: OperatingApp | undefined;
// Budgets and `--days` count UTC days: the wall clock is pinned to noon of one day (timers stay real).
const NOON = Date.UTC(2026, 11, 1, 12);
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: NOON });
});
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  vi.useRealTimers();
});

const prices = { input: 1000, output: 2000, cacheRead: 100 };
const turnsDone = (entries: readonly AgentEntry[]) => entries.filter((entry) => entry.type === "event" && (entry.data as { type?: string }).type === "turn.done").length;
const turnsStarted = (entries: readonly AgentEntry[]) => entries.filter((entry) => entry.type === "event" && (entry.data as { type?: string }).type === "turn.start").length;

/** A profile claiming the mock bot's `g*` channels: the tests talk to the commands in `lobby`, which nobody claims. */
function profile(extra: Record<string, unknown> = {}) {
  return { model: "mock:m", channels: { "mock:bot": ["g*"] }, wakeup: { engine: "standard", standard: { keywords: ["bot"], debounceMs: 0 } }, ...extra };
}

/** Input, cache and output tokens and calls of every usage-carrying fact, summed as a reader of events.jsonl would. */
function sumFacts(entries: readonly AgentEntry[]) {
  let input = 0;
  let output = 0;
  let cache = 0;
  let calls = 0;
  for (const entry of entries) {
    const data = entry.data as { role?: string; usage?: { inputTokens?: number; outputTokens?: number; inputTokenDetails?: { cacheReadTokens?: number } } };
    const carries = entry.type === "ishiki.usage" || (entry.type === "message" && data.role === "assistant" && data.usage !== undefined);
    if (!carries) continue;
    calls += 1;
    input += data.usage?.inputTokens ?? 0;
    output += data.usage?.outputTokens ?? 0;
    cache += data.usage?.inputTokenDetails?.cacheReadTokens ?? 0;
  }
  return { input, output, cache, calls };
}

describe("owner commands (issue 22)", () => {
  it("need admin authority by default: others get Koishi's refusal, admins the answer", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile() }, users: { boss: 3, pal: 1 } });
    for (const command of ["ishiki.status", "ishiki.usage", "ishiki.reset"]) expect(await kernel.say("pal", "lobby", command)).toBe("权限不足。");
    expect(await kernel.say("boss", "lobby", "ishiki.status")).toMatch(/^profile p：运行中/);
  });

  it("without a database (no user table, so Koishi checks no authority) the commands refuse everyone, unless commandAuthority is 0", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile() }, database: false });
    for (const command of ["ishiki.status", "ishiki.usage", "ishiki.reset"]) {
      expect(await kernel.say("anyone", "lobby", command)).toBe("无法确认你的权限：没有数据库插件时 Koishi 没有用户表，ishiki 管理命令因此不可用（或把 commandAuthority 设为 0）。");
    }
    await kernel.dispose();
    kernel = await startOperatingApp({ profiles: { p: profile() }, database: false, commandAuthority: 0 });
    expect(await kernel.say("anyone", "lobby", "ishiki.status")).toMatch(/^profile p：运行中/);
  });

  it("answer in the user's locale (en-US)", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile() } });
    await kernel.app.database.createUser("mock", "eve", { authority: 3, locales: ["en-US"] });
    expect(await kernel.say("eve", "lobby", "ishiki.status")).toBe("profile p: active, 0 runtime(s) in this process\nmodel groups: none");
    expect(await kernel.say("eve", "lobby", "ishiki.usage")).toBe("usage: the last 1 day(s) (since 2026-12-01 00:00 UTC)\nNo model calls were recorded in that time.");
    expect(await kernel.say("eve", "lobby", "ishiki.reset")).toBe("This channel belongs to no active profile; there is no context to reset.");
  });

  it("the authority is configurable", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile() }, users: { boss: 3, pal: 1 }, commandAuthority: 4 });
    expect(await kernel.say("boss", "lobby", "ishiki.status")).toBe("权限不足。");
    await kernel.app.database.setUser("mock", "pal", { authority: 4 });
    expect(await kernel.say("pal", "lobby", "ishiki.status")).toMatch(/^profile p：运行中/);
  });

  it("ishiki.status lists profiles, their runtimes, model groups with breaker state, and budgets", async () => {
    kernel = await startOperatingApp({
      profiles: { p: profile({ budget: { dailyTokens: 1000 } }), q: { model: "nowhere", channels: { "mock:bot": ["h*"] } } },
      groups: { cheap: { strategy: "failover", models: ["mock:c", "mock:d"] } },
      users: { boss: 3 },
    });
    await kernel.say("u1", "g1", "hello bot");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 1);
    kernel.app.ishiki.gateway.group("cheap").candidates()[0].failure();
    const status = await kernel.say("boss", "lobby", "ishiki.status");
    expect(status.split("\n")).toEqual([
      "profile p：运行中，本进程中运行时 1 个",
      "  · p/mock:bot/g1",
      "  预算：今日 5 / 1,000 tokens，估算费用 0.0000（UTC 日）",
      expect.stringMatching(/^profile q：/),
      "模型组：",
      "  cheap（failover）：mock:c 正常 ×1, mock:d 正常",
    ]);
  });

  it("ishiki.usage totals equal the sum of the usage facts in events.jsonl, side requests included, priced per model", async () => {
    kernel = await startOperatingApp({
      profiles: { p: profile({ wakeup: { engine: "judge", judge: { model: "judge:j", cooldownMs: 0 } } }) },
      models: [{ id: "m", prices }],
      judge: () => JSON.stringify({ addressed: 1, interested: 1, others: 0 }),
      users: { boss: 3 },
    });
    await kernel.say("u1", "g1", "lunch anyone?");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 1);
    await kernel.say("u1", "g1", "or dinner?");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 2);
    await kernel.say("u2", "g2", "the eclipse starts at 9");
    await until(async () => turnsDone(await kernel!.events("p", "g2")) === 1);

    const entries = [...(await kernel.events("p", "g1")), ...(await kernel.events("p", "g2"))];
    const facts = sumFacts(entries);
    // Each message: one judgement (a side request) and a one-step turn.
    expect(facts.calls).toBe(6);
    const side = entries.filter((entry) => entry.type === "ishiki.usage").map((entry) => entry.data as { purpose: string; model: string });
    expect(side.map((data) => `${data.purpose} ${data.model}`)).toEqual(["wakeup:judge/judgement judge:j", "wakeup:judge/judgement judge:j", "wakeup:judge/judgement judge:j"]);
    const steps = entries.filter((entry) => entry.type === "message" && (entry.data as { role: string }).role === "assistant");
    expect(steps.map((entry) => (entry.data as { model?: string }).model)).toEqual(["mock:m", "mock:m", "mock:m"]);

    const report = (await kernel.say("boss", "lobby", "ishiki.usage")).split("\n");
    // Judge: 3 in / 2 out at 100 per million each; turn steps: 3 in / 2 out at 1000 / 2000 per million.
    const cost = (3 * (3 * 100 + 2 * 100) + 3 * (3 * 1000 + 2 * 2000)) / 1_000_000;
    expect(report[1]).toBe(`合计：输入 ${facts.input}（缓存 ${facts.cache}）/ 输出 ${facts.output} tokens，${facts.calls} 次调用，费用 ${cost.toFixed(4)}`);
    expect(report).toContain("按用途（turn 为对话轮次，其余为旁路请求）：");
    expect(report).toContain("  turn：输入 9（缓存 0）/ 输出 6 tokens，3 次调用，费用 0.0210");
    expect(report).toContain("  wakeup:judge/judgement：输入 9（缓存 0）/ 输出 6 tokens，3 次调用，费用 0.0015");
    expect(report).toContain("  p/mock:bot/g1：输入 12（缓存 0）/ 输出 8 tokens，4 次调用，费用 0.0150");
    expect(report).toContain("  judge:j：输入 9（缓存 0）/ 输出 6 tokens，3 次调用，费用 0.0015");

    const g2Only = (await kernel.say("boss", "lobby", "ishiki.usage -c g2")).split("\n");
    expect(g2Only[1]).toBe("合计：输入 6（缓存 0）/ 输出 4 tokens，2 次调用，费用 0.0075");
    expect(await kernel.say("boss", "lobby", "ishiki.usage -p nobody")).toBe("没有 id 为 nobody 的 profile。");
    expect((await kernel.say("boss", "lobby", "ishiki.usage --days 7")).split("\n")[1]).toBe(report[1]);
  });

  it("an unpriced model is never shown as free", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile() }, users: { boss: 3 } });
    await kernel.say("u1", "g1", "hello bot");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 1);
    expect((await kernel.say("boss", "lobby", "ishiki.usage")).split("\n")[1]).toBe("合计：输入 3（缓存 0）/ 输出 2 tokens，1 次调用，费用 未定价");
  });
});

describe("daily budgets (issue 22)", () => {
  it("whenReached: mentions — at the limit the bot wakes only for direct mentions; reaching it is logged once and shown in ishiki.status", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile({ budget: { dailyTokens: 5 } }) }, users: { boss: 3 } });
    await kernel.say("u1", "g1", "hello bot");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 1);
    expect(kernel.logs.filter(([, line]) => line.includes("daily budget reached"))).toEqual([["warn", "[p] daily budget reached (5 of 5 tokens today, UTC): waking only for direct mentions until the next UTC day"]]);

    // A keyword no longer wakes; the fact is still stored, and the held-back wake leaves a debug line.
    await kernel.say("u1", "g1", "bot, are you there?");
    await until(() => kernel!.logs.some(([, line]) => line.includes("wake held back: the daily budget is reached")));
    const runtime = await kernel.app.ishiki.profile("p")!.runtime({ mode: "channel", platform: "mock", selfId: "bot", channelId: "g1", isDirect: false });
    await runtime.agent.wait();
    expect(turnsStarted(await kernel.events("p", "g1"))).toBe(1);
    // ishiki.why says the budget held it back, after the engine's own keyword wake.
    const why = (await kernel.say("boss", "g1", "ishiki.why 1")).split("\n");
    expect(why.slice(1, 4)).toEqual([expect.stringContaining("bot, are you there?"), expect.stringMatching(/standard：唤醒，规则 keyword:bot/), expect.stringMatching(/standard：不唤醒，规则 budget/)]);

    // A direct mention still wakes.
    await kernel.say("u1", "g1", '<at id="bot"/> please answer');
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 2);
    expect(kernel.logs.filter(([, line]) => line.includes("daily budget reached"))).toHaveLength(1);

    const status = (await kernel.say("boss", "lobby", "ishiki.status")).split("\n");
    expect(status[2]).toBe("  预算：今日 10 / 5 tokens，估算费用 0.0000（UTC 日）");
    expect(status[3]).toBe("  已于 12:00 UTC 达到预算：只在被直接提及（私聊、@机器人、引用机器人）时唤醒");
  });

  it("whenReached: group — at the limit the profile runs on the named cheaper group, and the step facts say so", async () => {
    kernel = await startOperatingApp({
      profiles: { p: profile({ budget: { dailyCost: 0.005, whenReached: "group", group: "cheap" } }) },
      models: [{ id: "m", prices }, { id: "c", prices: { input: 1, output: 1 } }],
      groups: { cheap: { models: ["mock:c"] } },
      users: { boss: 3 },
    });
    await kernel.say("u1", "g1", "hello bot");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 1);
    expect(kernel.logs.some(([, line]) => line === "[p] daily budget reached (cost 0.0070 of 0.005 today, UTC): switching to cheap until the next UTC day")).toBe(true);
    await kernel.say("u1", "g1", "bot, again");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 2);
    expect(kernel.served).toEqual(["m", "c"]);
    const steps = (await kernel.events("p", "g1")).filter((entry) => entry.type === "message" && (entry.data as { role: string }).role === "assistant");
    expect(steps.map((entry) => (entry.data as { model?: string }).model)).toEqual(["mock:m", "mock:c"]);
    expect((await kernel.say("boss", "lobby", "ishiki.status")).split("\n")[3]).toMatch(/达到预算：改用模型组 cheap$/);
  });

  it("a budget that cannot act is refused with the profile (skipped, with its reason)", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile({ budget: { dailyTokens: 5, whenReached: "group" } }), q: profile({ channels: { "mock:bot": ["h*"] }, budget: { dailyCost: -1 } }) } });
    await until(() => kernel!.logs.filter(([, line]) => line.includes("profile skipped")).length === 2);
    expect(kernel.logs.filter(([, line]) => line.includes("profile skipped")).map(([, line]) => line)).toEqual([
      expect.stringMatching(/^\[p\] profile skipped: .*budget\.group: required with whenReached: group$/),
      expect.stringMatching(/^\[q\] profile skipped: .*budget\.dailyCost/),
    ]);
  });

  it("today's usage already on disk counts after a restart of the profile", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile({ budget: { dailyTokens: 8 } }) }, users: { boss: 3 } });
    await kernel.say("u1", "g1", "hello bot");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 1);
    // A second activation of the same directory, a minute later, reads today's 5 tokens back.
    vi.setSystemTime(NOON + 60_000);
    const activation = kernel.app.ishiki.profile("p")!;
    const { ProfileActivation } = await import("../src/koishi/index.js");
    const again = new ProfileActivation(kernel.app, kernel.app.ishiki, activation.profile);
    const stop = await again.start();
    await again.budgetSeeded;
    expect(again.budget!.status().tokens).toBe(5);
    stop();

    // The next UTC day starts from zero; yesterday stays in `--days 2`.
    vi.setSystemTime(NOON + 86_400_000);
    expect((await kernel.say("boss", "lobby", "ishiki.status")).split("\n")[2]).toBe("  预算：今日 0 / 8 tokens，估算费用 0.0000（UTC 日）");
    expect((await kernel.say("boss", "lobby", "ishiki.usage")).split("\n").slice(1)).toEqual(["这段时间没有记录到模型调用。"]);
    expect((await kernel.say("boss", "lobby", "ishiki.usage --days 2")).split("\n")[1]).toBe("合计：输入 3（缓存 0）/ 输出 2 tokens，1 次调用，费用 未定价");
  });
});

describe("ishiki.reset (issue 22)", () => {
  it("starts a new context from here on: the model no longer sees earlier messages, which stay in events.jsonl", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile() }, users: { boss: 3 } });
    await kernel.say("u1", "g1", "my secret word is zebra, bot");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 1);
    expect(JSON.stringify(kernel.model.prompts.at(-1)!.prompt)).toContain("zebra");

    expect(await kernel.say("boss", "g1", "ishiki.reset")).toBe("已开始新的上下文（p/mock:bot/g1）：之前的消息仍保存在记录里，但模型从这里开始不再看到它们。");
    await kernel.say("u1", "g1", "what was my word, bot?");
    await until(async () => turnsDone(await kernel!.events("p", "g1")) === 2);
    const prompt = JSON.stringify(kernel.model.prompts.at(-1)!.prompt);
    expect(prompt).toContain("what was my word");
    expect(prompt).not.toContain("zebra");

    const entries = await kernel.events("p", "g1");
    expect(entries.filter((entry) => entry.type === "ishiki.reset").map((entry) => entry.data)).toEqual([{ by: "mock:boss" }]);
    expect(JSON.stringify(entries)).toContain("zebra");
  });

  it("in cross mode resets the profile's one stream, and says so", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile({ mode: "cross" }) }, users: { boss: 3 } });
    expect(await kernel.say("boss", "g1", "ishiki.reset")).toBe("已开始新的上下文（p/main）：这个 profile 是 cross 模式，重置对它认领的所有频道生效。");
    const entries = await readEvents(join(kernel.dir, "profiles", "p", "runtimes", "main"));
    expect(entries.filter((entry) => entry.type === "ishiki.reset")).toHaveLength(1);
  });

  it("answers in an unclaimed channel that there is nothing to reset", async () => {
    kernel = await startOperatingApp({ profiles: { p: profile() }, users: { boss: 3 } });
    expect(await kernel.say("boss", "lobby", "ishiki.reset")).toBe("当前频道不属于任何运行中的 profile，没有可重置的上下文。");
  });
});
