import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LanguageModelV4CallOptions, ProviderV4 } from "@ai-sdk/provider";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentAssistantMessage } from "@yesimagent/core";
import { NARRATIVE_MARKER } from "../src/engines/shared/narrative-marker.js";
import { scriptedModel, type ScriptedReply } from "../../core/test/agent-support.js";
import { channel, fact, labels, logged, readEvents, startActive, startKernel, toolOutputs, until, type KernelApp } from "./runtime-app.js";

let kernel: KernelApp | undefined;
// The render inserts a `-- <date> --` line when the local day changes: "now" sits three minutes after the fixture
// facts (runtime-app's `fact()`), which is the same local day in every time zone, and Date still advances.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Date.UTC(2026, 10, 30, 1, 5));
});
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  vi.useRealTimers();
});

type Role = "narrator" | "replyer" | "decoder" | "plain";

/** Which role a call plays, from the role text the engine puts first in its system message. */
function roleOf(options: LanguageModelV4CallOptions): Role {
  const first = options.prompt[0];
  const system = first?.role === "system" ? first.content : "";
  if (system.startsWith("You are the Narrator")) return "narrator";
  if (system.startsWith("You speak as the bot")) return "replyer";
  if (system.startsWith("You are the Action Decoder")) return "decoder";
  return "plain";
}

/** One model for every role: each role answers from its own queue (the last answer repeats). */
function byRole(script: Partial<Record<Role, ScriptedReply[]>>): ScriptedReply {
  const used: Partial<Record<Role, number>> = {};
  return (options) => {
    const role = roleOf(options);
    const replies = script[role] ?? [{ text: `unexpected ${role} call` }];
    const index = used[role] ?? 0;
    used[role] = index + 1;
    return replies[Math.min(index, replies.length - 1)];
  };
}

/** The text of the prompt's user message that starts with the marker, if any. */
function storyOf(options: LanguageModelV4CallOptions): string | undefined {
  for (const message of options.prompt) {
    if (message.role !== "user") continue;
    for (const part of message.content) if (part.type === "text" && part.text.startsWith(NARRATIVE_MARKER)) return part.text;
  }
  return undefined;
}

function calls(role: Role): LanguageModelV4CallOptions[] {
  return kernel!.model.prompts.filter((options) => roleOf(options) === role);
}

const narrativeProfile = (extra: Record<string, unknown> = {}) => ({
  model: "mock:m",
  channels: { "mock:bot": ["*"] },
  context: { engine: "narrative" },
  toolcall: { engine: "narrative" },
  ...extra,
});

async function runTurn(kernelApp: KernelApp, deliver: string[] = []): Promise<Awaited<ReturnType<KernelApp["app"]["ishiki"]["runtime"]>>> {
  const runtime = await kernelApp.app.ishiki.runtime("p", channel);
  for (const content of deliver) await runtime.deliver(fact(content));
  await runtime.agent.wait();
  runtime.wake();
  await runtime.agent.wait();
  return runtime;
}

describe("narrative toolcall engine: the three paths (EN-42)", () => {
  it("EN-42 EN-21 reply path: the narrator continues the marker story, the replyer's text is sent through send_message", async () => {
    kernel = await startActive("p", {
      profiles: { p: narrativeProfile() },
      replies: [byRole({ narrator: [{ text: "Alice greets you warmly. You feel like answering.\nDECISION: reply" }], replyer: [{ text: '"Hi Alice!"' }] })],
    });
    const runtime = await runTurn(kernel, ["hello bot"]);

    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["Hi Alice!"]);
    const entries = await readEvents(runtime.home);
    expect(labels(entries)).toEqual(["fact", "turn.start", "user:Continue.", "assistant:send_message", "tool:send_message", "turn.done"]);
    const assistant = entries.find((entry) => entry.type === "message" && entry.data.role === "assistant")!.data as AgentAssistantMessage;
    // Narration as a reasoning part, without the DECISION line; usage summed over narrator and replyer (3 + 3, 2 + 2).
    expect(assistant.content).toEqual([
      { type: "reasoning", text: "Alice greets you warmly. You feel like answering." },
      expect.objectContaining({ type: "tool-call", toolName: "send_message", input: { messages: ["Hi Alice!"] } }),
    ]);
    expect(assistant.usage).toMatchObject({ inputTokens: 6, outputTokens: 4 });
    // Issue 22: the step lists the engine's own calls, each priced on the model that served it.
    expect(assistant.calls?.map((call) => [call.model, call.purpose, call.usage.inputTokens])).toEqual([["mock:m", "toolcall:narrative/narrator", 3], ["mock:m", "toolcall:narrative/replyer", 3]]);
    expect(calls("narrator")).toHaveLength(1);
    expect(calls("replyer")).toHaveLength(1);
    expect(calls("decoder")).toHaveLength(0);

    const story = storyOf(calls("narrator")[0])!;
    expect(story.split("\n")[0]).toBe(NARRATIVE_MARKER);
    expect(story).toMatch(/<scene>\nplatform: mock\nchannel: c1 \(group chat\)\nlocal time: \d{4}-\d\d-\d\d \d\d:\d\d \(\w+day\)\n<\/scene>/);
    expect(story).toContain('<cast>\n- you: the bot (id bot); lines saying "You" are yours\n- Alice(u1)\n</cast>');
    expect(story).toMatch(/<story>\n\(nothing yet\)\n<\/story>\n<latest>\n-- \d{4}-\d\d-\d\d --\n\[\d\d:\d\d\] Alice\(u1\) says: "hello bot"\n\[\d\d:\d\d\] Note to you: Continue\.\n<\/latest>$/);
    // The narrator does not get the tools to call, only their names; the replyer sees the narration.
    expect(calls("narrator")[0].tools).toBeUndefined();
    expect(calls("narrator")[0].maxOutputTokens).toBe(512);
    expect(JSON.stringify(calls("narrator")[0].prompt[0])).toContain("- send_message: Send messages to the chat.");
    expect(JSON.stringify(calls("replyer")[0].prompt.at(-1))).toContain("Alice greets you warmly.");

    // Next turn: the bot's own message and the reply step are told in <story>; what came later is <latest>.
    await runTurn(kernel, ["how are you?"]);
    const next = storyOf(calls("narrator")[1])!;
    const [before, after] = next.split("<latest>");
    expect(before).toMatch(/\[\d\d:\d\d\] Alice\(u1\) says: "hello bot"\n\[\d\d:\d\d\] Note to you: Continue\.\n\[\d\d:\d\d\] You said: "Hi Alice!"\n<\/story>/);
    expect(after).toMatch(/^\n\[\d\d:\d\d\] Alice\(u1\) says: "how are you\?"\n\[\d\d:\d\d\] Note to you: Continue\.\n<\/latest>$/);
  });

  it("EN-42 act path: the decoder's native call runs a real tool; the next step narrates its result and replies", async () => {
    kernel = await startActive("p", {
      profiles: { p: narrativeProfile() },
      replies: [
        byRole({
          narrator: [{ text: "You want to check your note first.\nDECISION: act" }, { text: "The note says the meeting is at ten.\nDECISION: reply" }],
          decoder: [{ text: "ignored prose", calls: [{ id: "d1", name: "read", input: { url: "local://note.txt" } }] }],
          replyer: [{ text: "The meeting is at ten." }],
        }),
      ],
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    await writeFile(join(runtime.home, "note.txt"), "meeting at 10:00\n");
    await runTurn(kernel, ["when is the meeting?"]);

    const entries = await readEvents(runtime.home);
    expect(labels(entries)).toEqual(["fact", "turn.start", "user:Continue.", "assistant:read", "tool:read", "assistant:send_message", "tool:send_message", "turn.done"]);
    expect(JSON.stringify(toolOutputs(entries)[0])).toContain("meeting at 10:00");
    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["The meeting is at ten."]);
    const decoder = calls("decoder")[0];
    expect(decoder.tools?.map((tool) => tool.name)).toEqual(expect.arrayContaining(["read", "send_message", "finish", "wait"]));
    expect(decoder.toolChoice).toEqual({ type: "required" });
    expect(JSON.stringify(decoder.prompt.at(-1))).toContain("You want to check your note first.");
    // The second narration sees the tool's result folded into the story as one line.
    expect(storyOf(calls("narrator")[1])).toMatch(/\[\d\d:\d\d\] You used read: .*meeting at 10:00/);
    const first = entries.find((entry) => entry.type === "message" && entry.data.role === "assistant")!.data as AgentAssistantMessage;
    expect(first.content).toEqual([{ type: "reasoning", text: "You want to check your note first." }, expect.objectContaining({ type: "tool-call", toolCallId: "d1", toolName: "read" })]);
    expect(first.finishReason).toBe("tool-calls");
  });

  it("EN-42 done path: no call, the turn ends after the narration", async () => {
    kernel = await startActive("p", { profiles: { p: narrativeProfile() }, replies: [byRole({ narrator: [{ text: "They are talking among themselves.\n**DECISION: done**" }] })] });
    const runtime = await runTurn(kernel, ["bob, lunch?"]);
    const entries = await readEvents(runtime.home);
    expect(labels(entries)).toEqual(["fact", "turn.start", "user:Continue.", "assistant:", "turn.done"]);
    const assistant = entries.find((entry) => entry.type === "message" && entry.data.role === "assistant")!.data as AgentAssistantMessage;
    expect(assistant.content).toEqual([{ type: "reasoning", text: "They are talking among themselves." }]);
    expect(assistant.finishReason).toBe("stop");
    expect(kernel.model.prompts).toHaveLength(1);
    expect(kernel.outbound.sent).toEqual([]);
  });

  it("EN-42 a narration without a DECISION line is treated as done, with a warning", async () => {
    kernel = await startActive("p", { profiles: { p: narrativeProfile() }, replies: [byRole({ narrator: [{ text: "You ponder." }] })] });
    const runtime = await runTurn(kernel, ["hm"]);
    expect(labels(await readEvents(runtime.home)).slice(-2)).toEqual(["assistant:", "turn.done"]);
    expect(logged(kernel, "narrative: the narrator gave no DECISION line; treating it as done", "warn")).toBe(true);
  });

  it("EN-42 streaming: the agent's stream carries the narration as reasoning, then the calls", async () => {
    kernel = await startActive("p", {
      profiles: { p: narrativeProfile() },
      replies: [byRole({ narrator: [{ text: "You answer.\nDECISION: reply" }], replyer: [{ text: "Sure." }] })],
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    const parts: string[] = [];
    runtime.agent.channel.subscribe("stream", (event) => {
      if (event.stepNumber === 0) parts.push(event.part.type === "reasoning-delta" ? `reasoning:${event.part.text}` : event.part.type);
    });
    await runTurn(kernel, ["ping"]);
    expect(parts).toEqual(expect.arrayContaining(["reasoning-start", "reasoning:You answer.", "reasoning-end", "tool-call", "finish-step", "finish"]));
    expect(parts.indexOf("reasoning-end")).toBeLessThan(parts.indexOf("tool-call"));
    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["Sure."]);
  });
});

describe("narrative toolcall engine: configuration (EN-43)", () => {
  it("EN-43 without the narrative context the turn fails with the exact marker error", async () => {
    kernel = await startActive("p", { profiles: { p: narrativeProfile({ context: { engine: "standard" } }) }, replies: [{ text: "never asked" }] });
    const runtime = await runTurn(kernel, ["hello"]);
    const failed = (await readEvents(runtime.home)).find((entry) => entry.type === "event" && entry.data.type === "turn.failed");
    expect(failed?.data).toMatchObject({
      type: "turn.failed",
      error: { message: "narrative toolcall engine requires context.engine: narrative (marker [[ishiki:narrative v1]] not found)" },
    });
    expect(kernel.model.prompts).toHaveLength(0);
    expect(kernel.outbound.sent).toEqual([]);
  });

  it("EN-43 explicit role references resolve through the gateway; the others use the profile's model; settings reach the roles", async () => {
    const narrator = scriptedModel([{ text: "You reply.\nDECISION: reply" }]);
    kernel = await startActive("p", {
      profiles: { p: narrativeProfile({ toolcall: { engine: "narrative", narrative: { narrator: "alt:storyteller", maxNarrationTokens: 64, replyStyle: "short, lowercase" } } }) },
      replies: [byRole({ replyer: [{ text: "ok" }] })],
    });
    const gateway = kernel.app.ishiki.gateway;
    gateway.defineApi("alt-api", (): ProviderV4 => ({ specificationVersion: "v4", languageModel: () => narrator }) as unknown as ProviderV4);
    gateway.reconfigure({ providers: { mock: { api: "scripted" }, alt: { api: "alt-api" } } });
    await runTurn(kernel, ["hi"]);
    expect(narrator.prompts).toHaveLength(1);
    expect(roleOf(narrator.prompts[0])).toBe("narrator");
    expect(narrator.prompts[0].maxOutputTokens).toBe(64);
    expect(kernel.model.prompts.map(roleOf)).toEqual(["replyer"]);
    expect(JSON.stringify(kernel.model.prompts[0].prompt[0])).toContain("Reply style: short, lowercase");
    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["ok"]);
  });

  it("EN-43 EN-5 an invalid block fails activation; unknown keys warn", async () => {
    kernel = await startKernel({
      profiles: {
        bad: narrativeProfile({ channels: { "mock:bot": ["c1"] }, toolcall: { engine: "narrative", narrative: { maxNarrationTokens: 0 } } }),
        odd: narrativeProfile({ channels: { "mock:bot": ["c2"] }, context: { engine: "narrative", narrative: { maxMessages: 10, tone: "dark" } } }),
        worse: narrativeProfile({ channels: { "mock:bot": ["c3"] }, context: { engine: "narrative", narrative: { maxMessages: "many" } } }),
      },
    });
    await until(() => ["failed", "active", "failed"].every((status, index) => kernel!.app.ishiki.profile(["bad", "odd", "worse"][index])?.status === status));
    expect(logged(kernel, "[bad] activation failed: toolcall.narrative.maxNarrationTokens: expected an integer >= 1", "error")).toBe(true);
    expect(logged(kernel, "[odd] context.narrative.tone: unknown key ignored", "warn")).toBe(true);
    expect(logged(kernel, "[worse] activation failed: context.narrative.maxMessages: expected a number", "error")).toBe(true);
  });
});

describe("narrative context engine with other toolcall engines (EN-21, EN-22)", () => {
  it("EN-22 with the native toolcall engine the model gets the marker story and its send_message goes out", async () => {
    kernel = await startActive("p", {
      profiles: { p: narrativeProfile({ toolcall: { engine: "native" } }) },
      replies: [{ calls: [{ id: "s1", name: "send_message", input: { messages: ["hello"] } }] }, { calls: [{ id: "f1", name: "finish" }] }],
    });
    await runTurn(kernel, ["hi there"]);
    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["hello"]);
    await runTurn(kernel, ["again"]);
    const prompt = kernel.model.prompts[1].prompt;
    // The earlier call and its result are told as prose: no assistant or tool message reaches the model.
    expect(prompt.map((message) => message.role)).toEqual(["system", "user"]);
    expect(storyOf(kernel.model.prompts[1])).toMatch(/You said: "hello"\n<\/story>\n<latest>\n\[\d\d:\d\d\] Alice\(u1\) says: "again"/);
  });

  it("EN-21 maxMessages keeps the last story messages", async () => {
    kernel = await startActive("p", {
      profiles: { p: narrativeProfile({ context: { engine: "narrative", narrative: { maxMessages: 2 } }, toolcall: { engine: "native" } }) },
      replies: [{ calls: [{ id: "f1", name: "finish" }] }],
    });
    await runTurn(kernel, ["first", "second", "third"]);
    const story = storyOf(kernel.model.prompts[0])!;
    expect(story).not.toContain("first");
    expect(story).not.toContain("second");
    expect(story).toContain('says: "third"');
    expect(story).toContain("Note to you: Continue.");
  });
});
