import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { h } from "koishi";
import { afterEach, describe, expect, it } from "vitest";
import { readEvents } from "./runtime-app.js";
import { startMockKernel, until, type MockKernel } from "./koishi-app.js";

let kernel: MockKernel | undefined;
let server: Server | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  server?.close();
  server = undefined;
});

const home = (k: MockKernel, profile: string, channel: string) => join(k.dir, "profiles", profile, "runtimes", "mock%3Abot", channel);

async function facts(path: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
  const entries = await readEvents(path);
  return entries.filter((entry) => entry.type === "message" && entry.data.role === "custom" && entry.data.type.startsWith("ishiki.message.")).map((entry) => entry.data as never);
}

function receive(k: MockKernel, event: { type?: string; channel: string; user: string; id: string; content?: string; nick?: string }) {
  k.bot.receive({
    type: event.type ?? "message-created",
    platform: "mock",
    selfId: "bot",
    channel: { id: event.channel, type: 0 },
    guild: { id: event.channel },
    user: { id: event.user, name: `name-${event.user}` },
    member: event.nick ? { nick: event.nick } : undefined,
    message: { id: event.id, content: event.content ?? "", elements: h.parse(event.content ?? "") },
  } as never);
}

describe("routing and ingestion (KP-12 .. KP-14, KP-23 .. KP-28)", () => {
  it("KP-12 KP-14 KP-17 KP-24 a claimed message creates its runtime lazily and lands as a fact; unclaimed ones leave no trace", async () => {
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["g*", "!gx"] } } } });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    expect(kernel.app.ishiki.profile("p")!.runtimeIds()).toEqual([]);
    receive(kernel, { channel: "gx", user: "u1", id: "m0", content: "excluded" });
    receive(kernel, { channel: "other", user: "u1", id: "m1", content: "unclaimed" });
    receive(kernel, { channel: "g1", user: "u1", id: "m2", content: "hello <b>you</b>", nick: "Ali" });
    await until(async () => (await facts(home(kernel!, "p", "g1"))).length === 1);
    expect(kernel.app.ishiki.profile("p")!.runtimeIds()).toEqual(["p/mock:bot/g1"]);
    const [fact] = await facts(home(kernel, "p", "g1"));
    expect(fact.type).toBe("ishiki.message.created");
    expect(fact.data).toMatchObject({ platform: "mock", selfId: "bot", channelId: "g1", messageId: "m2", content: "hello <b>you</b>", user: { id: "u1", name: "Ali" }, isDirect: false });
    expect(existsSync(home(kernel, "p", "other"))).toBe(false);
    expect(existsSync(home(kernel, "p", "gx"))).toBe(false);
  });

  it("issue 20: activation says what the profile claims; a message nobody claims is counted at logLevel 3", async () => {
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["g*", "!gx"] } }, s: { model: "mock:m", channels: { "sandbox:*": ["*"] } } }, logLevel: 3 });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    expect(kernel.logged('[s] profile skipped: channels.sandbox:*: matches no account: sandbox platforms are named sandbox:<id>, so the key is sandbox:<id>:<selfId>, e.g. "sandbox:*:*"')).toBe(true);
    expect(kernel.logs.filter(([, line]) => line.includes("[p] profile active"))).toEqual([["info", "[p] profile active; claims mock:bot [g*, !gx]"]]);
    receive(kernel, { channel: "other", user: "u1", id: "m1", content: "unclaimed" });
    receive(kernel, { channel: "gx", user: "u1", id: "m2", content: "excluded" });
    await until(() => kernel!.logged("(2 unclaimed so far)"));
    expect(kernel.logs.filter(([, line]) => line.includes("claimed by no active profile"))).toEqual([
      ["debug", "ishiki.message.created on mock:bot/other claimed by no active profile (1 unclaimed so far)"],
      ["debug", "ishiki.message.created on mock:bot/gx claimed by no active profile (2 unclaimed so far)"],
    ]);
  });

  it("KP-24 a private message is direct and a quote is kept; the author name falls back to the user id", async () => {
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] } } } });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    kernel.bot.receive({
      type: "message-created",
      platform: "mock",
      selfId: "bot",
      channel: { id: "private:u7", type: 1 },
      user: { id: "u7" },
      message: { id: "q1", content: "yes", elements: h.parse("yes"), quote: { id: "m0", content: "shall we?", user: { id: "bot", name: "Bot" } } },
    } as never);
    await until(async () => (await facts(home(kernel!, "p", "private%3Au7"))).length === 1);
    const [fact] = await facts(home(kernel, "p", "private%3Au7"));
    expect(fact.data).toMatchObject({ channelId: "private:u7", isDirect: true, user: { id: "u7", name: "u7" }, quote: { id: "m0", content: "shall we?", user: { id: "bot", name: "Bot" } } });
  });

  it("KP-12 the first active profile in id order that claims the channel gets the event", async () => {
    kernel = await startMockKernel({
      profiles: {
        zed: { model: "mock:m", channels: { "mock:bot": ["z"] } },
        amy: { model: "mock:m", channels: { "mock:bot": ["a"] } },
      },
    });
    await until(() => kernel!.app.ishiki.profile("amy")?.status === "active" && kernel!.app.ishiki.profile("zed")?.status === "active");
    receive(kernel, { channel: "z", user: "u1", id: "z1", content: "to zed" });
    receive(kernel, { channel: "a", user: "u1", id: "a1", content: "to amy" });
    await until(async () => (await facts(home(kernel!, "zed", "z"))).length === 1 && (await facts(home(kernel!, "amy", "a"))).length === 1);
    expect(kernel.app.ishiki.profile("amy")!.runtimeIds()).toEqual(["amy/mock:bot/a"]);
  });

  it("KP-26 KP-28 KP-25 drops the bot's own messages and redeliveries; deletions arrive with author and operator", async () => {
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] } } } });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    receive(kernel, { channel: "c", user: "bot", id: "self", content: "my own words" });
    receive(kernel, { channel: "c", user: "u1", id: "dup", content: "once" });
    receive(kernel, { channel: "c", user: "u1", id: "dup", content: "once" });
    kernel.bot.receive({ type: "message-deleted", platform: "mock", selfId: "bot", channel: { id: "c", type: 0 }, user: { id: "u1" }, operator: { id: "admin" }, message: { id: "dup" } } as never);
    kernel.bot.receive({ type: "message-deleted", platform: "mock", selfId: "bot", channel: { id: "c", type: 0 }, user: { id: "u1" } } as never);
    await until(async () => (await facts(home(kernel!, "p", "c"))).length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const all = await facts(home(kernel, "p", "c"));
    expect(all.map((fact) => [fact.type, fact.data.messageId])).toEqual([
      ["ishiki.message.created", "dup"],
      ["ishiki.message.deleted", "dup"],
    ]);
    expect(all[1].data).toMatchObject({ userId: "u1", operatorId: "admin" });
  });

  it("KP-27 inbound media become asset:// references without being fetched", async () => {
    let fetched = 0;
    server = createServer((_req, res) => {
      fetched += 1;
      res.end("png");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cat.png`;
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] } } } });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    receive(kernel, { channel: "c", user: "u1", id: "img", content: `look <img src="${url}" file="cat.png"/>` });
    await until(async () => (await facts(home(kernel!, "p", "c"))).length === 1);
    const [fact] = await facts(home(kernel, "p", "c"));
    expect(fact.data.content).toMatch(/^look <img src="asset:\/\/[^"]+" file="cat.png"\/>$/);
    // Its attachment record is written with it (EX-17), from what is known without fetching.
    const entries = await readEvents(home(kernel, "p", "c"));
    const record = entries.find((entry) => entry.type === "message" && entry.data.role === "custom" && entry.data.type === "ishiki.attachment");
    expect(record?.data).toMatchObject({ data: { source: "platform", messageId: "img", items: [{ mediaType: "image/*", size: 0, filename: "cat.png", lifetime: "once" }] } });
    expect(fetched).toBe(0);
  });

  it("KP-13 KP-14 cross mode shares one runtime across claimed channels", async () => {
    kernel = await startMockKernel({ profiles: { x: { model: "mock:m", mode: "cross", channels: { "mock:bot": ["*"] } } } });
    await until(() => kernel!.app.ishiki.profile("x")?.status === "active");
    receive(kernel, { channel: "c1", user: "u1", id: "1", content: "one" });
    receive(kernel, { channel: "c2", user: "u2", id: "2", content: "two" });
    const main = join(kernel.dir, "profiles", "x", "runtimes", "main");
    await until(async () => (await facts(main)).length === 2);
    expect(kernel.app.ishiki.profile("x")!.runtimeIds()).toEqual(["x/main"]);
    expect(await readdir(join(kernel.dir, "profiles", "x", "runtimes"))).toEqual(["main"]);
  });

  it("KP-21 disposing the plugin stops every runtime of the profile and clears its routes", async () => {
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] } } } });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    receive(kernel, { channel: "c", user: "u1", id: "1", content: "one" });
    await until(async () => (await facts(home(kernel!, "p", "c"))).length === 1);
    const runtime = await kernel.app.ishiki.runtime("p", { mode: "channel", platform: "mock", selfId: "bot", channelId: "c", isDirect: false });
    const activation = kernel.app.ishiki.profile("p")!;
    kernel.kernelScope.dispose();
    await until(() => activation.runtimeIds().length === 0);
    await until(() => {
      try {
        runtime.agent.continue();
        return false;
      } catch {
        return true;
      }
    });
    receive(kernel, { channel: "c2", user: "u1", id: "2", content: "after" });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(existsSync(home(kernel, "p", "c2"))).toBe(false);
  });
});

describe("runtime creation (KP-17, KP-22)", () => {
  it("KP-17 concurrent first events share one creation and keep their order", async () => {
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] } } } });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    for (let index = 0; index < 5; index += 1) receive(kernel, { channel: "c", user: "u1", id: `burst-${index}`, content: `message ${index}` });
    await until(async () => (await facts(home(kernel!, "p", "c"))).length === 5);
    expect((await facts(home(kernel, "p", "c"))).map((fact) => fact.data.messageId)).toEqual(["burst-0", "burst-1", "burst-2", "burst-3", "burst-4"]);
    expect(kernel.logs.filter(([, line]) => line.includes("[p/mock:bot/c] runtime created"))).toHaveLength(1);
  });

  it("KP-22 a failed creation is not cached: each event retries, and its error is logged once a minute", async () => {
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { flaky: {} } } } });
    let attempts = 0;
    const { Extension } = await import("../src/extension/index.js");
    class Flaky extends Extension {
      constructor(ctx: never) {
        super(ctx, "flaky");
      }
      async [Extension.invoke](): Promise<undefined> {
        attempts += 1;
        throw new Error("not today");
      }
    }
    kernel.app.plugin(Flaky as never);
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    receive(kernel, { channel: "c", user: "u1", id: "f1", content: "one" });
    await until(() => attempts === 1);
    await until(() => kernel!.app.ishiki.profile("p")!.runtimeIds().length === 0);
    receive(kernel, { channel: "c", user: "u1", id: "f2", content: "two" });
    await until(() => attempts === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(kernel.logs.filter(([, line]) => line.includes("[p/mock:bot/c] runtime creation failed: not today"))).toHaveLength(1);
  });

  it("KP-20 a runtime holding an armed wait is not evicted, and is once the wait has fired", async () => {
    kernel = await startMockKernel({
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] } } },
      replies: [{ calls: [{ id: "w", name: "wait", input: { seconds: 1 } }] }, { calls: [{ id: "f", name: "finish" }] }],
    });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    const activation = kernel.app.ishiki.profile("p")!;
    const runtime = await kernel.app.ishiki.runtime("p", { mode: "channel", platform: "mock", selfId: "bot", channelId: "c", isDirect: false });
    runtime.wake();
    await until(() => runtime.hasScheduledWork() && runtime.agent.isIdle());
    expect(await activation.evictIdle(Date.now() + 31 * 60_000)).toEqual([]);
    expect(activation.runtimeIds()).toEqual(["p/mock:bot/c"]);
    // The wait fires after a second, opens a turn that finishes, and leaves nothing scheduled.
    await until(() => !runtime.hasScheduledWork() && runtime.agent.isIdle() && kernel!.model.prompts.length === 2, 5000);
    expect(await activation.evictIdle(Date.now() + 62 * 60_000)).toEqual(["p/mock:bot/c"]);
  });

  it("KP-20 a debounced hit and an active mute keep their runtimes from eviction; a quiet runtime is evicted", async () => {
    const standard = { debounceMs: 60_000, debounceMaxMs: 0, muteKeywords: ["hush"], muteMinutes: 30 };
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "standard", standard } } } });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    const activation = kernel.app.ishiki.profile("p")!;
    receive(kernel, { channel: "c", user: "u1", id: "h1", content: '<at id="bot"/> hello' });
    receive(kernel, { channel: "d", user: "u1", id: "m1", content: '<at id="bot"/> hush now' });
    receive(kernel, { channel: "e", user: "u1", id: "q1", content: "just chatting" });
    for (const channel of ["c", "d", "e"]) await until(async () => (await facts(home(kernel!, "p", channel))).length === 1);
    const domain = (channelId: string) => ({ mode: "channel", platform: "mock", selfId: "bot", channelId, isDirect: false }) as const;
    expect((await kernel.app.ishiki.runtime("p", domain("c"))).hasScheduledWork()).toBe(true);
    expect((await kernel.app.ishiki.runtime("p", domain("d"))).hasScheduledWork()).toBe(true);
    expect((await kernel.app.ishiki.runtime("p", domain("e"))).hasScheduledWork()).toBe(false);
    expect(await activation.evictIdle(Date.now() + 31 * 60_000)).toEqual(["p/mock:bot/e"]);
    expect(activation.runtimeIds().sort()).toEqual(["p/mock:bot/c", "p/mock:bot/d"]);
    expect(kernel.model.prompts).toHaveLength(0);
  });

  it("KP-20 a runtime idle for 30 minutes is stopped and the next event re-creates it from disk", async () => {
    kernel = await startMockKernel({ profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] } } } });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    const activation = kernel.app.ishiki.profile("p")!;
    receive(kernel, { channel: "c", user: "u1", id: "i1", content: "before" });
    await until(async () => (await facts(home(kernel!, "p", "c"))).length === 1);
    const first = await kernel.app.ishiki.runtime("p", { mode: "channel", platform: "mock", selfId: "bot", channelId: "c", isDirect: false });
    const seen: string[] = [];
    first.agent.channel.subscribe("agent", (event) => void seen.push(event.type));
    expect(await activation.evictIdle(Date.now() + 29 * 60_000)).toEqual([]);
    expect(await activation.evictIdle(Date.now() + 31 * 60_000)).toEqual(["p/mock:bot/c"]);
    expect(activation.runtimeIds()).toEqual([]);
    expect(seen).toContain("agent.stop");
    receive(kernel, { channel: "c", user: "u1", id: "i2", content: "after" });
    await until(async () => (await facts(home(kernel!, "p", "c"))).length === 2);
    const second = await kernel.app.ishiki.runtime("p", { mode: "channel", platform: "mock", selfId: "bot", channelId: "c", isDirect: false });
    expect(second).not.toBe(first);
    expect(activation.runtimeIds()).toEqual(["p/mock:bot/c"]);
  });
});
