import type { LanguageModelV4CallOptions, ProviderV4 } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createEntry, serializeEntry, type AgentEntry } from "@yesimagent/core";
import { runtimeHomeOf } from "../src/runtime/index.js";
import { judgeWakeupBlock } from "../src/engines/wakeup/judge-block.js";
import { JudgeWindows, MAX_JUDGE_CHANNELS } from "../src/engines/wakeup/judge-window.js";
import { channel, fact, labels, logged, readEvents, startActive, until, type KernelApp } from "./runtime-app.js";
import { usage, type ScriptedReply } from "../../core/test/agent-support.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const turns = (entries: readonly AgentEntry[]) => labels(entries).filter((label) => label === "turn.start").length;
const promptOf = (options: LanguageModelV4CallOptions) => JSON.stringify(options.prompt);

type Answer = string | ((options: LanguageModelV4CallOptions) => Promise<string>);

/**
 * A kernel whose profile uses the judge engine with model `judge:j`, answering each judgement with `answer`;
 * `preload` writes the channel's history before its runtime is created, `context` is the profile's.
 */
async function start(judge: Record<string, unknown>, answer: Answer, replies?: ScriptedReply[], history: { preload?: (home: string) => Promise<void>; context?: unknown } = {}) {
  const { preload, context } = history;
  const calls: LanguageModelV4CallOptions[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      calls.push(options);
      const text = typeof answer === "string" ? answer : await answer(options);
      return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
  kernel = await startActive("p", {
    profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "judge", judge: { model: "judge:j", ...judge } }, ...(context === undefined ? {} : { context }) } },
    replies,
  });
  kernel.app.ishiki.gateway.defineApi("judging", (): ProviderV4 => ({ specificationVersion: "v4", languageModel: () => model }) as unknown as ProviderV4);
  kernel.app.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted" }, judge: { api: "judging" } } });
  if (preload) {
    const home = runtimeHomeOf(join(kernel.dir, "profiles", "p"), channel);
    await mkdir(home, { recursive: true });
    await preload(home);
  }
  const runtime = await kernel.app.ishiki.runtime("p", channel);
  return { runtime, calls };
}

async function settle(runtime: { agent: { wait(): Promise<void> } }, ms = 40) {
  await sleep(ms);
  await runtime.agent.wait();
}

const answer = (addressed: number, interested: number, others: number) => JSON.stringify({ addressed, interested, others });

describe("judge wakeup engine (EN-35 .. EN-37)", () => {
  it("EN-35 defaults and bounds of the block", () => {
    expect(judgeWakeupBlock.parse({})).toEqual({ threshold: 0.5, cooldownMs: 30000, timeoutMs: 8000, historyMessages: 8, instruction: "", interests: [], rules: { direct: true, atSelf: true, quoteSelf: true, keywords: [] } });
    expect(judgeWakeupBlock.safeParse({ threshold: 1.5 }).success).toBe(false);
    expect(judgeWakeupBlock.safeParse({ timeoutMs: 50 }).success).toBe(false);
    expect(judgeWakeupBlock.safeParse({ historyMessages: 51 }).success).toBe(false);
  });

  it("EN-36 a rule hit wakes at once without asking the judge", async () => {
    const { runtime, calls } = await start({ rules: { keywords: ["pizza"] } }, answer(0, 0, 1));
    await runtime.deliver(fact("who wants PIZZA"));
    await settle(runtime);
    expect(turns(await readEvents(runtime.home))).toBe(1);
    expect(calls).toHaveLength(0);
  });

  it("EN-36 the judge sees interests, scene, history, the pending message and the owner's guidance; √(max(a, i)·(1 − o)) ≥ threshold wakes", async () => {
    const verdicts = [answer(0.2, 0.1, 0.5), answer(0.1, 0.9, 0.1)];
    const { runtime, calls } = await start({ interests: ["astronomy"], instruction: "Only join science talk." }, async () => verdicts[calls.length - 1]);
    await runtime.deliver(fact("lunch anyone?"));
    await until(() => calls.length === 1);
    await settle(runtime);
    // √(0.2 × 0.5) ≈ 0.32 < 0.5: quiet.
    expect(turns(await readEvents(runtime.home))).toBe(0);
    await runtime.deliver(fact("the eclipse starts at 9", { user: { id: "u2", name: "Bob" } }));
    await until(() => calls.length === 2);
    await settle(runtime);
    // √(0.9 × 0.9) = 0.9 ≥ 0.5: wake.
    expect(turns(await readEvents(runtime.home))).toBe(1);
    const prompt = promptOf(calls[1]);
    expect(prompt).toContain("astronomy");
    expect(prompt).toContain("Only join science talk.");
    expect(prompt).toContain("group chat c1 on mock");
    expect(prompt).toMatch(/Recent messages:\\n\[[^\]]+\] Alice\(u1\): lunch anyone\?/);
    expect(prompt).toMatch(/Pending message:\\n\[[^\]]+\] Bob\(u2\): the eclipse starts at 9/);
  });

  it("EN-36 no judgement while the bot spoke in the channel within cooldownMs; its messages are labelled self", async () => {
    const send: ScriptedReply = { calls: [{ id: "s", name: "send_message", input: { messages: ["hi there"] } }] };
    const { runtime, calls } = await start({}, answer(0, 0, 1), [send]);
    await runtime.deliver(fact('<at id="bot"/> hello'));
    await until(async () => labels(await readEvents(runtime.home)).includes("turn.done"));
    await runtime.deliver(fact("thanks"));
    await settle(runtime, 80);
    expect(calls).toHaveLength(0);
    await kernel!.dispose();
    kernel = undefined;
    const fresh = await start({ cooldownMs: 0 }, answer(0, 0, 1), [send]);
    await fresh.runtime.deliver(fact('<at id="bot"/> hello'));
    await until(async () => labels(await readEvents(fresh.runtime.home)).includes("turn.done"));
    await fresh.runtime.deliver(fact("thanks"));
    await until(() => fresh.calls.length === 1);
    expect(promptOf(fresh.calls[0])).toMatch(/\] self: hi there/);
  });

  it("EN-37 errors, timeouts and non-numeric answers never wake", async () => {
    const replies: Answer[] = [
      async () => {
        throw new Error("judge offline");
      },
      async () => "not json at all",
      async () => JSON.stringify({ addressed: "very", interested: 1, others: 0 }),
      async (options) => new Promise<string>((_, reject) => options.abortSignal?.addEventListener("abort", () => reject(options.abortSignal?.reason))),
    ];
    const { runtime, calls } = await start({ timeoutMs: 100 }, (options) => (replies[calls.length - 1] as (o: LanguageModelV4CallOptions) => Promise<string>)(options));
    for (let index = 0; index < replies.length; index += 1) {
      await runtime.deliver(fact(`message ${index}`));
      await until(() => calls.length === index + 1);
      await until(() => logged(kernel!, `no wake`) && kernel!.logs.filter(([, line]) => line.includes("no wake")).length === index + 1, 2000);
    }
    await settle(runtime);
    expect(turns(await readEvents(runtime.home))).toBe(0);
    expect(kernel!.logs.some(([level, line]) => level === "debug" && /judge offline \(\d+ ms\)/.test(line))).toBe(true);
  });

  it("EN-37 one judgement per channel in flight; facts meanwhile cause one re-run on the newest window", async () => {
    const { runtime, calls } = await start({}, async () => {
      await sleep(150);
      return answer(0, 0, 1);
    });
    await runtime.deliver(fact("first"));
    await until(() => calls.length === 1);
    await runtime.deliver(fact("second"));
    await runtime.deliver(fact("third"));
    await until(() => calls.length === 2);
    await sleep(300);
    expect(calls).toHaveLength(2);
    expect(promptOf(calls[1])).toMatch(/Pending message:\\n\[[^\]]+\] Alice\(u1\): third/);
    expect(promptOf(calls[1])).toContain("second");
  });

  it("EN-37 the window is seeded from storage", async () => {
    const { runtime, calls } = await start({}, answer(0, 0, 1));
    await runtime.deliver(fact("remember the ZEBRA"));
    await until(() => calls.length === 1);
    await settle(runtime);
    // Idle eviction stops the runtime; the next use re-creates it from disk (KP-20).
    expect(await kernel!.app.ishiki.profile("p")!.evictIdle(Date.now() + 3_600_000)).toEqual([runtime.id]);
    const again = await kernel!.app.ishiki.runtime("p", channel);
    expect(again).not.toBe(runtime);
    await again.deliver(fact("what was it?"));
    await until(() => calls.length === 2);
    expect(promptOf(calls[1])).toMatch(/Recent messages:\\n\[[^\]]+\] Alice\(u1\): remember the ZEBRA/);
  });

  it("EN-37 (issue 19) after a restart the windows come back from the history checkpoint: nothing reads the stream again", async () => {
    const old = Array.from({ length: 3_000 }, (_, index) => serializeEntry(createEntry("message", fact(`old message ${index}`))));
    old.push(serializeEntry(createEntry("message", fact("remember the ZEBRA"))));
    // A window far smaller than the history, so the runtime keeps a tail and checkpoints it.
    const context = { engine: "standard", standard: { maxTokens: 2_000 } };
    const { runtime, calls } = await start({}, answer(0, 0, 1), undefined, { context, preload: (home) => writeFile(join(home, "events.jsonl"), `${old.join("\n")}\n`) });
    await runtime.deliver(fact("what was it?"));
    await until(() => calls.length === 1);
    await settle(runtime);
    expect(promptOf(calls[0])).toContain("remember the ZEBRA");
    expect(await kernel!.app.ishiki.profile("p")!.evictIdle(Date.now() + 3_600_000)).toEqual([runtime.id]);
    // A middle line damaged behind the checkpoint's back: any whole read of the stream would report it.
    const path = join(runtime.home, "events.jsonl");
    const lines = (await readFile(path, "utf8")).split("\n");
    lines[1_500] = "x".repeat(lines[1_500].length);
    await writeFile(path, lines.join("\n"));
    const again = await kernel!.app.ishiki.runtime("p", channel);
    await again.deliver(fact("and now?"));
    await until(() => calls.length === 2);
    await settle(again);
    expect(promptOf(calls[1])).toMatch(/remember the ZEBRA.*what was it\?/);
    expect(kernel!.logs.filter(([, text]) => text.includes("corrupt line"))).toEqual([]);
  });

  it("EN-37 at most 512 channels are tracked; the least recently active is forgotten", () => {
    const windows = new JudgeWindows(8, channel);
    windows.get("mock:bot/c0").lastSpokeAt = 1;
    for (let index = 1; index <= MAX_JUDGE_CHANNELS; index += 1) windows.get(`mock:bot/c${index}`).lastSpokeAt = 1;
    expect(MAX_JUDGE_CHANNELS).toBe(512);
    expect(windows.get("mock:bot/c0").lastSpokeAt).toBeUndefined();
    expect(windows.get(`mock:bot/c${MAX_JUDGE_CHANNELS}`).lastSpokeAt).toBe(1);
  });
});
