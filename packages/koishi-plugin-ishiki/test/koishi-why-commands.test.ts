// ishiki.why, ishiki.mute / ishiki.unmute and ishiki.preview (issue 22) through a real Koishi app: the mock
// adapter, the memory database (for authority) and the ishiki kernel with a scripted model.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProviderV4 } from "@ai-sdk/provider";
import { MockBot } from "@koishijs/plugin-mock";
import * as memoryDatabase from "@koishijs/plugin-database-memory";
import { Context, Logger } from "koishi";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEntry } from "@yesimagent/core";
import type { ChannelDomain } from "../src/extension/index.js";
import { IshikiService } from "../src/koishi/index.js";
import { runtimesStopped } from "../src/runtime/index.js";
import { scriptedModel } from "../../core/test/agent-support.js";
import { stopApp } from "./stop-app.js";
import { until } from "./runtime-app.js";

const dirs: string[] = [];
const apps: Context[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await stopApp(app);
  await runtimesStopped();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const group: ChannelDomain = { mode: "channel", platform: "mock", selfId: "bot", channelId: "c1", isDirect: false };

/** A Koishi app with users `admin` (authority 3) and `guest` (1); `dir` is kept across restarts. */
async function start(dir?: string, standard: Record<string, unknown> = { debounceMs: 0 }, database = true, prices?: Record<string, number>) {
  const dataPath = dir ?? (await mkdtemp(join(tmpdir(), "ishiki-why-")));
  if (dir === undefined) dirs.push(dataPath);
  const app = new Context();
  apps.push(app);
  const silent: Logger.Target = { colors: 0, record: () => {} };
  Logger.targets.splice(0, Logger.targets.length, silent);
  if (database) app.plugin((memoryDatabase as unknown as { default: { default: never } }).default.default ?? (memoryDatabase as never));
  app.plugin(MockBot, { selfId: "bot" });
  app.plugin(IshikiService, {
    dataPath,
    profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "standard", standard } } },
    models: { providers: {}, groups: {} },
  });
  app.inject(["ishiki"], (ctx) => {
    ctx.ishiki.gateway.defineApi("scripted", (): ProviderV4 => ({
      specificationVersion: "v4",
      languageModel: () => scriptedModel([{ calls: [{ id: "f", name: "finish" }] }]),
      embeddingModel: () => {
        throw new Error("no embeddings");
      },
      imageModel: () => {
        throw new Error("no images");
      },
    }) as ProviderV4);
    ctx.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted", ...(prices === undefined ? {} : { models: [{ id: "m", toolCall: true, prices }] }) } } });
  });
  await app.start();
  await until(() => app.ishiki.profile("p")?.status === "active");
  for (const [id, authority] of database ? ([["admin", 3], ["guest", 1], ["alice", 1]] as const) : []) {
    const existing = await app.database.getUser("mock", id);
    if (existing === undefined) await app.database.createUser("mock", id, { authority });
  }
  const bot = app.bots["mock:bot"] as unknown as MockBot;
  return { app, dir: dataPath, bot };
}

async function stored(app: Context, domain: ChannelDomain = group): Promise<AgentEntry[]> {
  const runtime = await app.ishiki.runtime("p", domain);
  await runtime.agent.wait();
  return runtime.agent.storage.read();
}

const turnStarts = (entries: readonly AgentEntry[]) => entries.filter((entry) => entry.type === "event" && entry.data.type === "turn.start").length;
const factCount = (entries: readonly AgentEntry[]) => entries.filter((entry) => entry.type === "message" && entry.data.role === "custom" && entry.data.type === "ishiki.message.created").length;

/**
 * Sends `text` as `user` and waits until the kernel stored it and finished any turn it opened; a kernel command
 * is never stored (it is the owner talking to the kernel), so for one this checks the count stays.
 */
async function say(app: Context, bot: MockBot, user: string, text: string, channelId = "c1") {
  const domain = channelId.startsWith("private:") ? { ...group, channelId, isDirect: true } : { ...group, channelId };
  const before = factCount(await stored(app, domain));
  const replies = await bot.client(user, channelId.startsWith("private:") ? undefined : channelId).receive(text);
  if (text.startsWith("ishiki.")) expect(factCount(await stored(app, domain))).toBe(before);
  else await until(async () => factCount(await stored(app, domain)) > before);
  await stored(app, domain);
  return replies.join("\n");
}

describe("ishiki.why (issue 22)", () => {
  it("explains each of the last messages: rule, outcome and the turn with its steps, tools and tokens", async () => {
    const { app, bot } = await start(undefined, { debounceMs: 0, keywords: ["开会"] });
    await say(app, bot, "alice", "今天好热");
    await say(app, bot, "alice", "下午三点开会");
    await until(async () => turnStarts(await stored(app)) === 1);
    await say(app, bot, "alice", '<at id="bot"/> 在吗');
    await until(async () => turnStarts(await stored(app)) === 2);
    const reply = await say(app, bot, "admin", "ishiki.why 3");
    const lines = reply.split("\n");
    expect(lines[0]).toMatch(/3/);
    const hot = lines.findIndex((line) => line.includes("今天好热"));
    expect(lines[hot + 1]).toMatch(/standard.*none/);
    expect(lines[hot + 2]).toMatch(/→/);
    const meeting = lines.findIndex((line) => line.includes("下午三点开会"));
    expect(lines[meeting + 1]).toMatch(/standard.*keyword:开会/);
    expect(lines[meeting + 2]).toMatch(/finish/);
    const mention = lines.findIndex((line) => line.includes("在吗"));
    expect(lines[mention + 1]).toMatch(/standard.*atSelf/);
    expect(lines[mention + 2]).toMatch(/finish.*tokens|tokens.*finish|finish/);
    expect(reply).not.toMatch(/估算费用/);
  });

  it("adds a turn's estimated cost when its model declares prices", async () => {
    const { app, bot } = await start(undefined, { debounceMs: 0, keywords: ["开会"] }, true, { input: 1_000_000, output: 2_000_000 });
    await say(app, bot, "alice", "下午三点开会");
    await until(async () => turnStarts(await stored(app)) === 1);
    const reply = await say(app, bot, "admin", "ishiki.why 1");
    expect(reply).toMatch(/估算费用 7\.0000/); // 3 input and 2 output tokens at 1 and 2 per token
  });

  it("fails closed without a database: Koishi would check no authority, so every command refuses", async () => {
    const { app, bot } = await start(undefined, { debounceMs: 0 }, false);
    for (const command of ["ishiki.why", "ishiki.mute 10m", "ishiki.unmute", 'ishiki.preview {"engine":"standard"}']) {
      expect(await say(app, bot, "admin", command)).toMatch(/没有用户表|no user table/);
    }
    expect((await stored(app)).some((entry) => entry.type === "state")).toBe(false);
  });

  it("refuses a user below admin authority", async () => {
    const { app, bot } = await start();
    const reply = await say(app, bot, "guest", "ishiki.why");
    expect(reply).toMatch(/权限不足|Low authority/);
    expect(reply).not.toMatch(/#/);
  });
});

describe("ishiki.mute / ishiki.unmute (issue 22)", () => {
  it("a muted channel does not wake, says so in ishiki.why, stays muted across a restart, and unmute lifts it", async () => {
    const first = await start();
    expect(await say(first.app, first.bot, "admin", "ishiki.mute 2h")).toMatch(/静音到|muted until/);
    await say(first.app, first.bot, "alice", '<at id="bot"/> 在吗');
    expect(turnStarts(await stored(first.app))).toBe(0);
    const why = await say(first.app, first.bot, "admin", "ishiki.why 1");
    expect(why).toMatch(/mute.*muted by the owner until/);
    expect(why).toMatch(/已静音|is muted until/);

    await stopApp(first.app);
    apps.splice(apps.indexOf(first.app), 1);
    await runtimesStopped();
    const second = await start(first.dir);
    await say(second.app, second.bot, "alice", '<at id="bot"/> 还在吗');
    expect(turnStarts(await stored(second.app))).toBe(0);
    expect(await say(second.app, second.bot, "admin", "ishiki.unmute")).toMatch(/已解除|no longer muted/);
    await say(second.app, second.bot, "alice", '<at id="bot"/> 现在呢');
    await until(async () => turnStarts(await stored(second.app)) === 1);
    expect(await say(second.app, second.bot, "admin", "ishiki.unmute")).toMatch(/没有被静音|not muted/);
  });

  it("mutes a private chat until unmuted; a bad duration and a guest are refused", async () => {
    const { app, bot } = await start();
    expect(await say(app, bot, "admin", "ishiki.mute 5x", "private:admin")).toMatch(/无法识别时长|Cannot read the duration/);
    const turnsBefore = turnStarts(await stored(app, { ...group, channelId: "private:admin", isDirect: true }));
    expect(await say(app, bot, "admin", "ishiki.mute", "private:admin")).toMatch(/直到发送 ishiki.unmute|until you send ishiki.unmute/);
    await say(app, bot, "admin", "hello?", "private:admin");
    expect(turnStarts(await stored(app, { ...group, channelId: "private:admin", isDirect: true }))).toBe(turnsBefore);
    expect(await say(app, bot, "guest", "ishiki.mute 10m")).toMatch(/权限不足|Low authority/);
    expect((await stored(app)).some((entry) => entry.type === "state")).toBe(false);
  });
});

describe("ishiki.preview (issue 22)", () => {
  it("replays the channel with other settings: counts and the messages that differ, beside what happened", async () => {
    const { app, bot } = await start(undefined, { debounceMs: 0 });
    for (const text of ["早", "下午三点开会", "收到", '<at id="bot"/> 总结一下', "开会改到明天了", "好的"]) await say(app, bot, "alice", text);
    await until(async () => turnStarts(await stored(app)) === 1);
    const reply = await say(app, bot, "admin", 'ishiki.preview {"engine":"standard","standard":{"keywords":["开会"],"debounceMs":0}}');
    const lines = reply.split("\n");
    expect(lines[0]).toMatch(/(会唤醒 3 次，实际唤醒 1 次|wake 3 times, the bot woke 1 times); 2|2 条消息结果不同|2 messages differ/);
    expect(lines.filter((line) => line.startsWith("+"))).toHaveLength(2);
    expect(lines.find((line) => line.includes("下午三点开会"))).toMatch(/^\+.*keyword:开会/);
  });

  it("answers settings that are not JSON, an unknown engine and an invalid block; refuses a guest", async () => {
    const { app, bot } = await start();
    await say(app, bot, "alice", "早");
    expect(await say(app, bot, "admin", "ishiki.preview {engine")).toMatch(/JSON/);
    expect(await say(app, bot, "admin", 'ishiki.preview {"engine":"nope"}')).toMatch(/nope/);
    expect(await say(app, bot, "admin", 'ishiki.preview {"engine":"standard","standard":{"debounceMs":"x"}}')).toMatch(/wakeup\.standard\.debounceMs/);
    expect(await say(app, bot, "guest", 'ishiki.preview {"engine":"standard"}')).toMatch(/权限不足|Low authority/);
  });
});
