import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import NoteExtension from "../src/note.js";
import { BriefingContextEngine } from "../src/briefing.js";
import { GroundingToolcallEngine } from "../src/grounding.js";
import { ClockExtension } from "../src/clock-extension.js";
import { channel, directMessage, promptLines, startKernel, until, type TestKernel } from "./kernel.js";

let kernel: TestKernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

async function wakeAndSettle(k: TestKernel, profileId: string, text: string, turns = 1): Promise<void> {
  const runtime = await k.app.ishiki.runtime(profileId, channel);
  const before = k.calls.length;
  await runtime.deliver(directMessage(text));
  await until(() => k.calls.length > before);
  await until(() => runtime.agent.isIdle());
  await runtime.agent.wait();
  void turns;
}

describe("XA-30 reference samples in a Koishi app with the kernel", () => {
  it("XA-28 XA-30 NoteExtension writes the note file and its URL is readable via read", async () => {
    kernel = await startKernel({
      plugins: (app) => app.plugin(NoteExtension),
      profiles: { notes: { model: "scripted:model", channels: { "mock:bot": ["*"] }, extends: { note: { config: { prefix: "memo" } } } } },
      replies: [
        { calls: [{ name: "note_write", input: { text: "buy milk" } }] },
        { calls: [{ name: "read", input: { url: "local://notes.txt" } }] },
        { calls: [{ name: "finish" }] },
      ],
    });
    await until(() => kernel!.app.ishiki.profile("notes")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("notes", channel);
    await runtime.deliver(directMessage("remember to buy milk"));
    await until(() => kernel!.calls.length === 3);
    await runtime.agent.wait();
    expect(await readFile(join(runtime.home, "notes.txt"), "utf8")).toBe("memo: buy milk\n");

    expect(promptLines(kernel.calls[0])[0]).toContain("Use note_write to record durable notes.");
    expect(promptLines(kernel.calls[1]).join("\n")).toContain("local://notes.txt");
    expect(promptLines(kernel.calls[2]).join("\n")).toContain("memo: buy milk");
  });

  it("XA-3 XA-30 NoteExtension's Schema rejects a bad config and the activation fails", async () => {
    kernel = await startKernel({
      plugins: (app) => app.plugin(NoteExtension),
      profiles: { notes: { model: "scripted:model", channels: { "mock:bot": ["*"] }, extends: { note: { config: { prefix: 42 } } } } },
      replies: [{ calls: [{ name: "finish" }] }],
    });
    await until(() => kernel!.app.ishiki.profile("notes")?.status === "failed");
    expect(kernel.logs.some(([, line]) => line.includes('[notes] activation failed: extension "note" config invalid: prefix: expected string but got 42'))).toBe(true);
  });

  it("XA-19 XA-30 BriefingContextEngine, installed as an ordinary Koishi plugin, puts briefing.md into the system prompt and edits show next turn", async () => {
    kernel = await startKernel({
      plugins: (app) => app.plugin(BriefingContextEngine),
      profiles: { brief: { model: "scripted:model", channels: { "mock:bot": ["*"] }, context: { engine: "briefing" } } },
      replies: [{ calls: [{ name: "finish" }] }],
    });
    await until(() => kernel!.app.ishiki.profile("brief")?.status === "active");
    const root = join(kernel.dataPath, "profiles", "brief");
    await mkdir(root, { recursive: true });
    await writeFile(join(root, "briefing.md"), "Current task: plan the picnic.");
    await wakeAndSettle(kernel, "brief", "hello");
    expect(promptLines(kernel.calls[0])[0]).toContain("Current task: plan the picnic.");
    await writeFile(join(root, "briefing.md"), "Current task: book the train.");
    await wakeAndSettle(kernel, "brief", "and now?");
    const system = promptLines(kernel.calls[1])[0];
    expect(system).toContain("Current task: book the train.");
    expect(system).not.toContain("picnic");
    // Default history otherwise: the fact is rendered as a user line.
    expect(promptLines(kernel.calls[1]).join("\n")).toContain("Alice(u1) #");
  });

  it("XA-30 GroundingToolcallEngine's instruction is the first system message of every call", async () => {
    kernel = await startKernel({
      plugins: (app) => app.plugin(GroundingToolcallEngine),
      profiles: { ground: { model: "scripted:model", channels: { "mock:bot": ["*"] }, toolcall: { engine: "grounding" } } },
      replies: [{ calls: [{ name: "read", input: { url: "local://missing.txt" } }] }, { calls: [{ name: "finish" }] }],
    });
    await until(() => kernel!.app.ishiki.profile("ground")?.status === "active");
    await wakeAndSettle(kernel, "ground", "what do you know?");
    expect(kernel.calls).toHaveLength(2);
    for (const call of kernel.calls) {
      expect(call.prompt[0]).toEqual({ role: "system", content: "Cite a resource URL for every factual claim." });
      expect(call.prompt.slice(1).some((message) => message.role === "system" && String(message.content).includes("send_message"))).toBe(true);
    }
  });

  it("XA-30 ClockHandler: clock://now reads an ISO time and clock://later fails resource_not_found", async () => {
    kernel = await startKernel({
      plugins: (app) => app.plugin(ClockExtension),
      profiles: { clock: { model: "scripted:model", channels: { "mock:bot": ["*"] }, extends: { clock: {} } } },
      replies: [
        { calls: [{ name: "read", input: { url: "clock://now" } }, { name: "read", input: { url: "clock://later" } }] },
        { calls: [{ name: "finish" }] },
      ],
    });
    await until(() => kernel!.app.ishiki.profile("clock")?.status === "active");
    await wakeAndSettle(kernel, "clock", "time?");
    const results = kernel.calls[1].prompt.flatMap((message) => (message.role === "tool" ? message.content : []));
    const [now, later] = results.map((part) => (part.type === "tool-result" ? part.output : undefined));
    expect(JSON.stringify(now)).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
    expect(later?.type).toBe("error-text");
    expect(JSON.stringify(later)).toContain("resource_not_found");
    expect(JSON.stringify(later)).toContain("expected clock://now");
  });
});
