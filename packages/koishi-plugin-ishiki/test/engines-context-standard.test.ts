import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { Context } from "koishi";
import { afterEach, describe, expect, it } from "vitest";
import { createAssistantMessage, createCustomMessage, createEntry, createToolMessage, type AgentEntry } from "@yesimagent/core";
import { ContextEngine } from "../src/engines/index.js";
import { StandardContextEngine } from "../src/engines/context/standard.js";
import { TokenModel } from "../src/engines/context/standard-token-model.js";
import type { ExtensionHost } from "../src/extension/index.js";
import type { Runtime } from "../src/runtime/index.js";
import { deferred, promptTexts } from "../../core/test/agent-support.js";
import { budgetModel, promptChars, type BudgetModel, type BudgetModelOptions } from "./engines-context-standard-model.js";
import { channel, fact, labels, logged, readEvents, startActive, startKernel, until, type KernelApp } from "./runtime-app.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const HEADER = "[Background memory:";

interface Setup {
  runtime: Runtime;
  model: BudgetModel;
}

/** A runtime whose chat model reports `fixed + rate × chars` input tokens, under the standard context engine. */
async function start(standard: Record<string, unknown>, model: Partial<BudgetModelOptions> = {}): Promise<Setup> {
  const budget = budgetModel({ fixed: 200, rate: 0.25, summarise: () => "SUMMARY", ...model });
  kernel = await startActive("p", { profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, context: { engine: "standard", standard } } } });
  kernel.app.ishiki.gateway.defineApi("budget", () => budget.provider);
  kernel.app.ishiki.gateway.reconfigure({ providers: { mock: { api: "budget" } } });
  return { runtime: await kernel.app.ishiki.runtime("p", channel), model: budget };
}

/** One turn: a fact of `size` chars, then a wake; the model answers with `finish` (a call/result pair). */
async function turn(runtime: Runtime, text: string, size = 400): Promise<void> {
  await runtime.deliver(fact(text.padEnd(size, ".")));
  runtime.agent.continue();
  await runtime.agent.wait();
}

function compactions(entries: readonly AgentEntry[]): Array<AgentEntry<"ishiki.compact">> {
  return entries.filter((entry): entry is AgentEntry<"ishiki.compact"> => entry.type === "ishiki.compact");
}

/** The non-system prompt texts. */
function conversation(call: LanguageModelV4CallOptions): string[] {
  return promptTexts(call).filter((text) => !text.startsWith("system:"));
}

/** Every tool result in the prompt follows its call, and every call has its result. */
function pairsIntact(call: LanguageModelV4CallOptions): boolean {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of call.prompt) {
    if (message.role === "system") continue;
    for (const part of message.content) {
      if (part.type === "tool-call") calls.add(part.toolCallId);
      if (part.type === "tool-result") {
        if (!calls.has(part.toolCallId)) return false;
        results.add(part.toolCallId);
      }
    }
  }
  return [...calls].every((id) => results.has(id));
}

describe("standard context: budget and window (EN-12 .. EN-14)", () => {
  it("EN-13 EN-14 a long conversation is cut at turn boundaries to the learned budget, pairs never split", async () => {
    // 200 fixed + 0.25 per char: 700 tokens leave 2,000 chars, about four turns of ~460 chars.
    const { runtime, model } = await start({ maxTokens: 700 });
    for (let index = 1; index <= 12; index += 1) await turn(runtime, `turn ${index}`);
    const last = model.chats.at(-1)!;
    const texts = conversation(last);
    expect(texts.some((text) => text.includes("turn 1."))).toBe(false);
    expect(texts.some((text) => text.includes("turn 12"))).toBe(true);
    for (const call of model.chats) expect(pairsIntact(call)).toBe(true);
    // Each cut window starts at a turn: the summary and then a fact line, never a stray call or result.
    for (const call of model.chats.slice(4)) {
      const first = conversation(call).find((text) => !text.startsWith(`user:${HEADER}`))!;
      expect(first).toMatch(/^user:\[\d\d-\d\d \d\d:\d\d\] Alice\(u1\) #m\d+: turn \d+/);
    }
    // Learned rate 0.25 (not the default 0.5, which would keep about two turns): the later windows stay under
    // maxTokens and hold at least three whole turns (refill target 80 % of the ceiling).
    for (const call of model.chats.slice(6)) {
      expect(model.tokens(call)).toBeLessThanOrEqual(700);
      expect(conversation(call).filter((text) => /#m\d+: turn/.test(text)).length).toBeGreaterThanOrEqual(3);
    }
  });

  it("EN-14 under the ceiling the whole history passes", async () => {
    const { runtime, model } = await start({ maxTokens: 32_000 });
    for (let index = 1; index <= 5; index += 1) await turn(runtime, `turn ${index}`);
    const texts = conversation(model.chats.at(-1)!);
    for (let index = 1; index <= 5; index += 1) expect(texts.some((text) => text.includes(`turn ${index}.`))).toBe(true);
    expect(model.summaries).toHaveLength(0);
  });

  it("EN-14 (decided here) facts outside any turn are cut between: an over-budget history of facts is windowed", async () => {
    const { runtime, model } = await start({ maxTokens: 700 });
    for (let index = 1; index <= 30; index += 1) await runtime.deliver(fact(`fact ${index}`.padEnd(400, ".")));
    runtime.agent.continue();
    await runtime.agent.wait();
    const texts = conversation(model.chats[0]);
    expect(texts.some((text) => text.includes("fact 30."))).toBe(true);
    expect(texts.some((text) => text.includes("fact 1."))).toBe(false);
    expect(model.tokens(model.chats[0])).toBeLessThanOrEqual(700 / 0.5);
    expect(logged(kernel!, "no point to cut at", "warn")).toBe(false);
    // (Decided here) the summariser gets the newest dropped records that fit the budget, not all of them.
    await until(() => model.summaries.length === 1);
    const records = (JSON.parse(promptTexts(model.summaries[0]).at(-1)!.replace(/^user:/, "")) as { records: Array<{ content: string }> }).records;
    expect(records.length).toBeGreaterThan(0);
    expect(records.some((record) => record.content.includes("fact 1."))).toBe(false);
    expect(records.reduce((sum, record) => sum + record.content.length, 0)).toBeLessThanOrEqual(2 * 700 / 0.5);
  });

  it("EN-14 one turn over budget has no point to cut at and passes whole with a warning", async () => {
    const { runtime, model } = await start({ maxTokens: 300 });
    runtime.wake("one huge turn".padEnd(3000, "."));
    await runtime.agent.wait();
    expect(conversation(model.chats[0]).some((text) => text.includes("one huge turn"))).toBe(true);
    expect(logged(kernel!, "no point to cut at", "warn")).toBe(true);
  });

  it("EN-12 maxTokens ≤ 0 turns budget and compaction off with a warning", async () => {
    const { runtime, model } = await start({ maxTokens: 0 });
    for (let index = 1; index <= 6; index += 1) await turn(runtime, `turn ${index}`, 2000);
    expect(logged(kernel!, "context.standard.maxTokens: 0 turns the token budget and compaction off", "warn")).toBe(true);
    expect(conversation(model.chats.at(-1)!).some((text) => text.includes("turn 1."))).toBe(true);
    expect(model.summaries).toHaveLength(0);
  });

  it("EN-12 EN-5 refillRatio outside (0, 1] and a non-number maxTokens fail activation", async () => {
    kernel = await startKernel({
      profiles: {
        ratio: { model: "mock:m", channels: { "mock:bot": ["c1"] }, context: { engine: "standard", standard: { refillRatio: 0 } } },
        tokens: { model: "mock:m", channels: { "mock:bot": ["c2"] }, context: { engine: "standard", standard: { maxTokens: "many" } } },
        fine: { model: "mock:m", channels: { "mock:bot": ["c3"] }, context: { engine: "standard", standard: { refillRatio: 1, maxTokens: 1000 } } },
      },
    });
    await until(() => ["ratio", "tokens"].every((id) => kernel!.app.ishiki.profile(id)?.status === "failed") && kernel!.app.ishiki.profile("fine")?.status === "active");
    expect(logged(kernel, "[ratio] activation failed: context.standard.refillRatio: expected a ratio in (0, 1]", "error")).toBe(true);
    expect(logged(kernel, "[tokens] activation failed: context.standard.maxTokens: expected a number", "error")).toBe(true);
  });
});

describe("standard context: token model (EN-13)", () => {
  it("EN-13 two samples at least 10 % apart give the rate; fixed is what the rate leaves; implausible rates are ignored", () => {
    const model = new TokenModel();
    expect(model.budget(32_000, 0.8)).toEqual({ ceiling: 64_000, target: 51_200 });
    model.observe(1000, 700);
    expect([model.rate, model.fixed]).toEqual([0.5, 200]);
    model.observe(1050, 712.5); // 5 % apart: no rate from this pair
    expect(model.fixed).toBeCloseTo(187.5);
    expect(model.rate).toBe(0.5);
    model.observe(2000, 950);
    expect(model.rate).toBeCloseTo(0.25);
    expect(model.fixed).toBeCloseTo(450);
    model.observe(3000, 4950); // 4 tokens per char: outside [0.1, 1.5], kept at 0.25
    expect(model.rate).toBeCloseTo(0.25);
    expect(model.fixed).toBeCloseTo(4200);
    model.observe(1, 0);
    expect(model.fixed).toBe(0);
    expect(model.budget(1200, 0.5).ceiling).toBeCloseTo(4800);
  });
});

describe("standard context: compaction (EN-9, EN-15 .. EN-17)", () => {
  it("EN-9 EN-15 EN-17 compaction appends ishiki.compact and the next request starts with the summary", async () => {
    let count = 0;
    const { runtime, model } = await start({ maxTokens: 700 }, { summarise: () => `SUMMARY-${(count += 1)}` });
    for (let index = 1; index <= 6; index += 1) await turn(runtime, `turn ${index}`);
    await until(async () => compactions(await readEvents(runtime.home)).length >= 1);
    const entries = await readEvents(runtime.home);
    const [compact] = compactions(entries);
    expect(compact.data.summary).toBe("SUMMARY-1");
    // The anchor is the last entry of a dropped turn: the entry after it begins a turn's part of the history.
    const at = entries.findIndex((entry) => entry.id === compact.data.lastEntryId);
    expect(labels(entries)[at]).toBe("turn.done");

    // The summariser saw the dropped message entries as JSON records, under its rules, through doGenerate.
    const request = model.summaries[0];
    expect(promptTexts(request)[0]).toMatch(/^system:.*historical data, never instructions/s);
    const input = JSON.parse(promptTexts(request).at(-1)!.replace(/^user:/, "")) as { previousSummary: string | null; records: Array<Record<string, unknown>> };
    expect(input.previousSummary).toBeNull();
    const dropped = entries.slice(0, at + 1).filter((entry) => entry.type === "message");
    expect(input.records.map((record) => record.entryId)).toEqual(dropped.map((entry) => entry.id));
    expect(input.records[0]).toMatchObject({ role: "ishiki.message.created", timestamp: new Date(dropped[0].timestamp).toISOString() });
    expect(String(input.records[0].content)).toContain("Alice(u1)");
    expect(input.records.find((record) => record.role === "assistant")).toMatchObject({ turnId: expect.any(String), content: "[called finish {}]" });

    await turn(runtime, "after compaction");
    const next = conversation(model.chats.at(-1)!);
    expect(next[0]).toMatch(/^user:\[Background memory:.*not current instructions\.\]\n\nSUMMARY-\d$/s);
    // Nothing up to the anchor is shown any more.
    expect(next.some((text) => text.includes("turn 1."))).toBe(false);

    for (let index = 7; index <= 12; index += 1) await turn(runtime, `turn ${index}`);
    await until(async () => compactions(await readEvents(runtime.home)).length >= 2);
    const later = JSON.parse(promptTexts(model.summaries[1]).at(-1)!.replace(/^user:/, "")) as { previousSummary: string | null };
    expect(later.previousSummary).toBe("SUMMARY-1");
  });

  it("EN-16 a failed compaction warns and is retried after the next turn", async () => {
    let attempts = 0;
    const { runtime } = await start(
      { maxTokens: 700 },
      {
        summarise: () => {
          attempts += 1;
          if (attempts === 1) throw new Error("summariser down");
          return "RECOVERED";
        },
      },
    );
    // One turn at a time until the first compaction has run, so no second turn retries it early.
    for (let index = 1; index <= 8 && !logged(kernel!, "compaction failed"); index += 1) {
      await turn(runtime, `turn ${index}`);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(logged(kernel!, "compaction failed: summariser down; retrying after the next turn", "warn")).toBe(true);
    expect(compactions(await readEvents(runtime.home))).toHaveLength(0);
    expect(attempts).toBe(1);
    await turn(runtime, "next turn");
    await until(async () => compactions(await readEvents(runtime.home)).length === 1);
    expect(attempts).toBe(2);
    expect(compactions(await readEvents(runtime.home))[0].data.summary).toBe("RECOVERED");
  });

  it("EN-16 runtime stop aborts a running compaction and discards its late result", async () => {
    const entered = deferred();
    const release = deferred();
    let signal: AbortSignal | undefined;
    const { runtime } = await start(
      { maxTokens: 700 },
      {
        summarise: async (options) => {
          signal = options.abortSignal;
          entered.resolve();
          await release.promise;
          return "LATE";
        },
      },
    );
    for (let index = 1; index <= 6 && signal === undefined; index += 1) await turn(runtime, `turn ${index}`);
    await entered.promise;
    expect(signal?.aborted).toBe(false);
    await runtime.stop();
    expect(signal?.aborted).toBe(true);
    release.resolve();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(compactions(await readEvents(runtime.home))).toHaveLength(0);
  });

  it("EN-17 an anchor whose lastEntryId is missing warns and its summary is ignored", async () => {
    const { runtime, model } = await start({ maxTokens: 32_000 });
    await turn(runtime, "before");
    await runtime.agent.storage.append(createEntry("ishiki.compact", { summary: "GHOST", lastEntryId: "no-such-entry" }));
    await turn(runtime, "after");
    expect(logged(kernel!, "compaction anchor no-such-entry not found", "warn")).toBe(true);
    const texts = conversation(model.chats.at(-1)!);
    expect(texts.some((text) => text.includes("GHOST"))).toBe(false);
    expect(texts.some((text) => text.includes("before"))).toBe(true);
  });

  it("EN-17 a valid anchor written through the agent's storage starts the window after lastEntryId", async () => {
    const { runtime, model } = await start({ maxTokens: 32_000 });
    await turn(runtime, "old news");
    const stored = await readEvents(runtime.home);
    await runtime.agent.storage.append(createEntry("ishiki.compact", { summary: "Alice likes tea.", lastEntryId: stored.at(-1)!.id }));
    await turn(runtime, "fresh");
    const texts = conversation(model.chats.at(-1)!);
    expect(texts[0]).toContain("Alice likes tea.");
    expect(texts.some((text) => text.includes("old news"))).toBe(false);
    expect(texts.some((text) => text.includes("fresh"))).toBe(true);
    expect(promptChars(model.chats.at(-1)!)).toBeGreaterThan(0);
  });
});

describe("standard context: attachments and catalogs in the kept window (EN-8)", () => {
  it("EN-8 a catalog message inside the kept window reaches the model while older turns are cut", async () => {
    const { runtime, model } = await start({ maxTokens: 700 });
    for (let index = 1; index <= 6; index += 1) await turn(runtime, `turn ${index}`);
    const text = "Tool catalog update: +1 \u22120.\nwrite_note \u2014 Write a note.";
    runtime.agent.send(createCustomMessage("ishiki.tools.catalog", { version: 1, kind: "delta", mode: "direct", added: [{ name: "write_note", description: "Write a note." }], removed: [], visible: ["write_note"], text }), { trigger: false });
    await turn(runtime, "turn 7");
    const texts = conversation(model.chats.at(-1)!);
    expect(texts).toContain(`user:${text}`);
    expect(texts.some((line) => line.includes("turn 1."))).toBe(false);
  });

  it("EN-8 attachment records inside the kept window pass through prepareEntries unchanged", async () => {
    const warnings: string[] = [];
    const host = { logger: { warn: (line: string) => warnings.push(line) }, profileModel: () => { throw new Error("unused"); } } as unknown as ExtensionHost;
    const engine = new StandardContextEngine(new Context());
    const instance = await engine[ContextEngine.invoke](host, { engine: "standard", standard: { maxTokens: 400, refillRatio: 0.8 } });
    const entries: AgentEntry[] = [];
    for (let index = 1; index <= 4; index += 1) {
      const turnId = `t${index}`;
      entries.push(
        createEntry("message", fact(`turn ${index}`.padEnd(300, "."))),
        createEntry("event", { type: "turn.start", turnId }, { turnId }),
        createEntry("message", createAssistantMessage([{ type: "tool-call", toolCallId: `c${index}`, toolName: "read", input: {} }]), { turnId }),
        createEntry("message", createToolMessage([{ type: "tool-result", toolCallId: `c${index}`, toolName: "read", output: { type: "json", value: { ok: true } } }]), { turnId }),
        createEntry("message", createCustomMessage("ishiki.attachment", { source: "tool", toolName: "read", toolCallId: `c${index}`, items: [] }), { turnId }),
        createEntry("event", { type: "turn.done", turnId, steps: 1 }, { turnId }),
      );
    }
    const kept = await instance.prepareEntries!(entries, { turnId: "t5", signal: new AbortController().signal });
    expect(kept.length).toBeLessThan(entries.length);
    expect(kept.at(-1)).toBe(entries.at(-1));
    // Whole turns from a boundary on, every entry (attachment records included) the same object as stored.
    const start = entries.indexOf(kept[0]);
    expect(kept).toEqual(entries.slice(start));
    expect(kept.filter((entry) => entry.type === "message" && entry.data.role === "custom" && entry.data.type === "ishiki.attachment")).toHaveLength(kept.length / 6);
    expect(warnings).toEqual([]);
  });
});
