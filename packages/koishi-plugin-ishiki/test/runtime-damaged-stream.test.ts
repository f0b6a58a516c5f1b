// A runtime over a damaged or unusable events.jsonl (issue 16, AG-7, AG-10): Ishiki's own entry types are checked
// when read, a stream that cannot be read drops no delivered message silently, and a fast reload never puts two
// writers on one file.
import { mkdir, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { h, type Context } from "koishi";
import { afterEach, describe, expect, it } from "vitest";
import { createEntry, createUserMessage, type AgentEntry } from "@yesimagent/core";
import { inspectAgent } from "../../core/src/diagnostics.js";
import { Extension, type ExtensionHost, type ExtensionInstance } from "../src/extension/index.js";
import { IshikiService } from "../src/koishi/index.js";
import { runtimeHomeOf } from "../src/runtime/index.js";
import { channel, fact, readEvents, startActive, until, type KernelApp } from "./runtime-app.js";
import { startMockKernel, type MockKernel } from "./koishi-app.js";

let kernel: KernelApp | undefined;
let mock: MockKernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  await mock?.dispose();
  kernel = mock = undefined;
});

const profile = { model: "mock:m", channels: { "mock:bot": ["*"] } };
const line = (entry: unknown): string => `${JSON.stringify(entry)}\n`;
const custom = (type: string, data: unknown, id: string): AgentEntry =>
  createEntry("message", { id, timestamp: 1, role: "custom", type, data } as never, { id, timestamp: 1 });

function receive(k: MockKernel, channelId: string, id: string, content: string): void {
  k.bot.receive({
    type: "message-created",
    platform: "mock",
    selfId: "bot",
    channel: { id: channelId, type: 0 },
    guild: { id: channelId },
    user: { id: "u1", name: "Alice" },
    message: { id, content, elements: h.parse(content) },
  } as never);
}

describe("Ishiki entries are checked when read (AG-7)", () => {
  const good = fact("still here");
  const bad: Array<[string, AgentEntry]> = [
    ["a created fact without user", custom("ishiki.message.created", { ...good.data, user: null }, "b1")],
    ["a created fact with numeric content", custom("ishiki.message.created", { ...good.data, content: 5 }, "b2")],
    ["a created fact with data null", custom("ishiki.message.created", null, "b3")],
    ["a deletion without messageId", custom("ishiki.message.deleted", { timestamp: 1, platform: "mock", selfId: "bot", channelId: "c1" }, "b4")],
    ["an attachment of no source", custom("ishiki.attachment", { source: "elsewhere", items: [] }, "b5")],
    ["an attachment item without url", custom("ishiki.attachment", { source: "tool", toolName: "t", toolCallId: "c", items: [{ mediaType: "image/png", size: 1, lifetime: "once", immutable: true }] }, "b6")],
    ["a catalog with added null", custom("ishiki.tools.catalog", { version: 1, kind: "baseline", mode: "direct", added: null, removed: [], visible: [], text: "x" }, "b7")],
    ["a compaction without summary", createEntry("ishiki.compact", { lastEntryId: "x" } as never, { id: "b8", timestamp: 1 })],
    ["a delivery with items null", createEntry("ishiki.delivery", { turnId: "t", stepNumber: 0, items: null } as never, { id: "b9", timestamp: 1 })],
  ];

  it("AG-7 every bad Ishiki entry is skipped and reported; the channel answers its next message", async () => {
    kernel = await startActive("p", { profiles: { p: profile } });
    const home = runtimeHomeOf(join(kernel.dir, "profiles", "p"), channel);
    await mkdir(home, { recursive: true });
    const stored = createEntry("message", good, { id: "g", timestamp: 1 });
    await writeFile(join(home, "events.jsonl"), bad.map(([, entry]) => line(entry)).join("") + line(stored));
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    await runtime.deliver(fact("new message"));
    runtime.wake();
    await runtime.agent.wait();
    const warnings = kernel.logs.filter(([level, text]) => level === "warn" && text.includes("invalid entry skipped"));
    expect(warnings.map(([, text]) => Number(text.match(/events\.jsonl:(\d+):/)?.[1]))).toEqual(bad.map((_, index) => index + 1));
    const events = await readEvents(runtime.home);
    expect(events.some((entry) => entry.type === "event" && entry.data.type === "turn.done")).toBe(true);
    const prompt = JSON.stringify(kernel.model.prompts.at(-1)!.prompt);
    expect(prompt).toContain("still here");
    expect(prompt).toContain("new message");
  });
});

describe("a stream that cannot be read drops nothing silently (issue 16)", () => {
  it("AG-8 KP-22 with events.jsonl a directory each delivered message is logged with the path; after repair the next one lands", async () => {
    mock = await startMockKernel({ profiles: { p: profile } });
    await until(() => mock!.app.ishiki.profile("p")?.status === "active");
    const home = runtimeHomeOf(join(mock.dir, "profiles", "p"), { ...channel, channelId: "c" });
    const path = join(home, "events.jsonl");
    await mkdir(path, { recursive: true });
    receive(mock, "c", "d1", "one");
    receive(mock, "c", "d2", "two");
    const dropped = (id: string) => mock!.logs.find(([level, text]) => level === "warn" && text.includes(`ishiki.message.created ${id} dropped`))?.[1];
    await until(() => dropped("d1") !== undefined && dropped("d2") !== undefined);
    for (const id of ["d1", "d2"]) {
      expect(dropped(id)).toContain("[p/mock:bot/c]");
      expect(dropped(id)).toContain(`cannot read ${path}: EISDIR`);
    }
    await rmdir(path);
    receive(mock, "c", "d3", "three");
    await until(async () => (await readEvents(home)).some((entry) => entry.type === "message" && entry.data.role === "custom"));
    const facts = (await readEvents(home)).filter((entry) => entry.type === "message" && entry.data.role === "custom");
    expect(facts.map((entry) => (entry.data as { data: { messageId: string } }).data.messageId)).toEqual(["d3"]);
  });
});

/** An extension whose instances finish their stop only when `open()` is called, then write one more entry. */
function slowStop() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { stopping: false, open: () => open() };
  class SlowStop extends Extension {
    constructor(ctx: Context) {
      super(ctx, "slowstop");
    }
    [Extension.invoke](host: ExtensionHost): ExtensionInstance {
      return {
        async stop() {
          state.stopping = true;
          await gate;
          // A late write of the stopping runtime, as a slow engine or extension flush makes it.
          await host.runtime.agent.storage.append(createEntry("message", createUserMessage("written while stopping")));
        },
      };
    }
  }
  return { plugin: SlowStop, state };
}

/** Waits a little for `creation` (as long as the old code took to read the file), opens the gate, then checks replay. */
async function expectReadAfterTeardown(creation: Promise<import("../src/runtime/index.js").Runtime>, open: () => void): Promise<void> {
  // The new creation must wait for the old runtime's teardown, so the outcome does not depend on this pause.
  await Promise.race([creation, new Promise((resolve) => setTimeout(resolve, 200))]);
  open();
  const runtime = await creation;
  await until(async () => JSON.stringify(await readEvents(runtime.home)).includes("written while stopping"));
  await runtime.deliver(fact("after restart"));
  await runtime.agent.wait();
  expect(inspectAgent(runtime.agent).historySize()).toBe((await readEvents(runtime.home)).length);
}

describe("one writer per events.jsonl across a fast reload (AG-10)", () => {
  it("AG-10 KP-21 a runtime of the reloaded kernel reads its file only after the old runtime's teardown finished writing", async () => {
    const slow = slowStop();
    const profiles = { p: { ...profile, extends: { slowstop: {} } } };
    mock = await startMockKernel({ profiles });
    mock.app.plugin(slow.plugin as never);
    await until(() => mock!.app.ishiki.profile("p")?.status === "active");
    const domain = { ...channel, channelId: "r" };
    const first = await mock.app.ishiki.runtime("p", domain);
    await first.deliver(fact("before reload"));
    await first.agent.wait();

    mock.kernelScope.dispose();
    mock.kernelScope = mock.app.plugin(IshikiService, { dataPath: mock.dir, profiles, models: { providers: {}, groups: {} } });
    await until(() => slow.state.stopping && mock!.app.ishiki?.profile("p")?.status === "active");
    await expectReadAfterTeardown(mock.app.ishiki.runtime("p", domain), slow.state.open);
  });

  it("AG-10 KP-20 an event right after an idle eviction re-creates the runtime only once the evicted one has stopped", async () => {
    const slow = slowStop();
    mock = await startMockKernel({ profiles: { p: { ...profile, extends: { slowstop: {} } } } });
    mock.app.plugin(slow.plugin as never);
    await until(() => mock!.app.ishiki.profile("p")?.status === "active");
    const activation = mock.app.ishiki.profile("p")!;
    const domain = { ...channel, channelId: "e" };
    const first = await activation.runtime(domain);
    await first.deliver(fact("before eviction"));
    await first.agent.wait();
    const evicted = activation.evictIdle(Date.now() + 31 * 60_000);
    await until(() => slow.state.stopping);
    await expectReadAfterTeardown(activation.runtime(domain), slow.state.open);
    expect(await evicted).toEqual(["p/mock:bot/e"]);
  });
});
