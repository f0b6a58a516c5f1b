import { afterEach, describe, expect, it, vi } from "vitest";
import { createAssistantMessage, createToolMessage, type AgentMessage } from "@yesimagent/core";
import { stopRule } from "../src/runtime/index.js";
import { channel, fact, labels, logged, readEvents, startActive, toolOutputs, until, type KernelApp } from "./runtime-app.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await kernel?.dispose();
  kernel = undefined;
});

const profile = () => ({ model: "mock:m", channels: { "mock:bot": ["*"] } });

function step(calls: Array<{ name: string; input?: unknown; output?: unknown }>): AgentMessage[] {
  if (calls.length === 0) return [createAssistantMessage([{ type: "text", text: "thinking" }])];
  return [
    createAssistantMessage(calls.map((call, index) => ({ type: "tool-call" as const, toolCallId: `c${index}`, toolName: call.name, input: call.input ?? {} }))),
    createToolMessage(
      calls.map((call, index) => ({
        type: "tool-result" as const,
        toolCallId: `c${index}`,
        toolName: call.name,
        output: typeof call.output === "string" ? { type: "text" as const, value: call.output } : { type: "json" as const, value: (call.output ?? { ok: true }) as never },
      })),
    ),
  ];
}

const decide = (calls: Parameters<typeof step>[0]) => stopRule({ turnId: "t", stepNumber: 0, result: { messages: step(calls), toolCalls: calls.length, seenSeq: 0 } });

describe("stop rule (EN-44)", () => {
  it("EN-44 finish or wait stops, whatever else ran", () => {
    expect(decide([{ name: "finish" }])).toEqual({ continue: false });
    expect(decide([{ name: "read" }, { name: "wait", output: { ok: true } }])).toEqual({ continue: false });
  });

  it("EN-44 only successful send_message calls without continue stop; the exit's text display counts too", () => {
    expect(decide([{ name: "send_message", output: { ok: true, ids: ["1"] } }, { name: "send_message", output: '{"ok":true,"ids":["2"]}' }])).toEqual({ continue: false });
    expect(decide([{ name: "send_message", input: { messages: ["x"], continue: true }, output: { ok: true, ids: [] } }])).toBeUndefined();
    expect(decide([{ name: "send_message", output: { ok: false, sent: [], failedAt: 0 } }])).toBeUndefined();
  });

  it("EN-44 any other call continues; no call leaves the agent's default", () => {
    expect(decide([{ name: "send_message", output: { ok: true, ids: [] } }, { name: "read" }])).toEqual({ continue: true });
    expect(decide([{ name: "codemode" }])).toEqual({ continue: true });
    expect(decide([])).toBeUndefined();
  });
});

describe("finish and wait (EN-45 .. EN-48)", () => {
  it("EN-45 EN-44 finish returns { ok: true } and ends the turn after its step", async () => {
    kernel = await startActive("p", { profiles: { p: profile() }, replies: [{ calls: [{ id: "f", name: "finish", input: { reason: "done" } }] }, { text: "never" }] });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    const entries = await readEvents(runtime.home);
    expect(labels(entries)).toEqual(["turn.start", "user:Continue.", "assistant:finish", "tool:finish", "turn.done"]);
    expect(toolOutputs(entries)).toEqual([{ ok: true }]);
    expect(kernel.model.prompts).toHaveLength(1);
  });

  it("EN-46 wait needs seconds or message: true and reports what it armed", async () => {
    kernel = await startActive("p", {
      profiles: { p: profile() },
      replies: [{ calls: [{ id: "w0", name: "wait", input: {} }] }, { calls: [{ id: "w1", name: "wait", input: { seconds: 60, message: true, note: "check mail" } }] }],
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    // A wait call ends the turn even when it was refused (EN-44 looks at the call, not its result).
    runtime.wake();
    await runtime.agent.wait();
    runtime.wake();
    await runtime.agent.wait();
    const entries = await readEvents(runtime.home);
    const [refused, result] = toolOutputs(entries);
    expect(refused).toEqual({ error: "wait needs seconds or message: true" });
    const armed = result as { ok?: boolean; armed?: { seconds?: number; message?: boolean; firesAt?: string }; replaced?: boolean };
    expect(armed).toMatchObject({ ok: true, armed: { seconds: 60, message: true }, replaced: false });
    expect(new Date(armed.armed!.firesAt!).toISOString()).toBe(armed.armed!.firesAt);
    expect(labels(entries).filter((label) => label === "turn.start")).toHaveLength(2);
    await runtime.stop();
    expect(logged(kernel, "[p/mock:bot/c1] armed wait dropped at stop; waits are not restored after a restart", "info")).toBe(true);
  });

  it("EN-47 EN-48 the timer fires once with its text and note, even when the wakeup engine would not wake", async () => {
    kernel = await startActive("p", {
      profiles: { p: profile() },
      replies: [{ calls: [{ id: "w", name: "wait", input: { seconds: 1, note: "tea is ready" } }] }, { calls: [{ id: "f", name: "finish" }] }],
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    await until(() => kernel!.model.prompts.length === 2, 3000);
    await runtime.agent.wait();
    const stored = labels(await readEvents(runtime.home));
    expect(stored).toContain("user:Wait ended: timer elapsed after 1 s. Note: tea is ready");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(kernel.model.prompts).toHaveLength(2);
  });

  it("EN-47 the message condition fires on the first fact after arming, even one the wakeup engine ignores", async () => {
    kernel = await startActive("p", {
      profiles: { p: profile() },
      replies: [{ calls: [{ id: "w", name: "wait", input: { message: true } }] }, { calls: [{ id: "f", name: "finish" }] }],
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    await runtime.deliver(fact("an ordinary group message"));
    await until(() => kernel!.model.prompts.length === 2);
    await runtime.agent.wait();
    const stored = labels(await readEvents(runtime.home));
    expect(stored.slice(-6)).toEqual(["fact", "turn.start", "user:Wait ended: a new message arrived.", "assistant:finish", "tool:finish", "turn.done"]);
    await runtime.deliver(fact("another one"));
    await runtime.agent.wait();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(kernel.model.prompts).toHaveLength(2);
  });

  it("EN-47 a new wait replaces the armed one and finish does not cancel it", async () => {
    kernel = await startActive("p", {
      profiles: { p: profile() },
      replies: [
        { calls: [{ id: "w1", name: "wait", input: { seconds: 3600 } }] },
        { calls: [{ id: "w2", name: "wait", input: { message: true } }] },
        { calls: [{ id: "f", name: "finish" }] },
        { calls: [{ id: "f2", name: "finish" }] },
      ],
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    runtime.wake();
    await runtime.agent.wait();
    const outputs = toolOutputs(await readEvents(runtime.home)) as Array<{ replaced?: boolean }>;
    expect(outputs.map((output) => output.replaced)).toEqual([false, true]);
    runtime.wake();
    await runtime.agent.wait();
    await runtime.deliver(fact("wake me"));
    await until(() => kernel!.model.prompts.length === 4);
    await runtime.agent.wait();
    expect(labels(await readEvents(runtime.home))).toContain("user:Wait ended: a new message arrived.");
  });
});
