// Issue 21: the Ishiki page's data API is for admins. Checked through the console's own listener authority with
// the real @koishijs/plugin-auth (the plugin that enforces it): a logged-in user of authority 1 is refused every
// ishiki listener and gets no `ishiki` data; the admin gets the overview and the timeline of the runtime the
// mock bot's chat created, the states of the profiles that wait and fail, and a long message folded and paged in.
// And nothing here writes: the stream is byte-identical after the admin read it.
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProviderV4 } from "@ai-sdk/provider";
import { MockBot } from "@koishijs/plugin-mock";
import DatabaseMemory from "@koishijs/plugin-database-memory";
import Server from "@koishijs/plugin-server";
import Console from "@koishijs/plugin-console";
import AuthModule from "@koishijs/plugin-auth";
import { Context } from "koishi";
import { afterAll, describe, expect, it } from "vitest";
import { scriptedModel } from "../../core/test/agent-support.js";
import { IshikiService } from "../src/koishi/index.js";
import { runtimesStopped } from "../src/runtime/index.js";
import { until } from "./koishi-app.js";
import type { ConsoleOverview, TimelinePage } from "../src/koishi/console/index.js";
import { FOLD_CHARS } from "../src/koishi/console/timeline.js";
import { freePort } from "../../gateway/test/gateway-servers.js";
import { connectConsole, type ConsoleConnection } from "./console-support.js";
import { stopApp } from "./stop-app.js";

type AnyPlugin = (ctx: Context, config: any) => void;

const connections: ConsoleConnection[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const connection of connections) connection.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function login(port: number, name: string, password: string): Promise<ConsoleConnection> {
  const connection = await connectConsole(port);
  connections.push(connection);
  await connection.call("login/password", name, password);
  return connection;
}

describe("the Ishiki console API (issue 21)", () => {
  it("refuses a user below admin authority; serves the admin the profiles' states, the runtime's timeline, folded and paged, without writing to the stream; its listeners leave with the plugin", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ishiki-console-"));
    const port = await freePort();
    const app = new Context();
    cleanups.push(async () => {
      await stopApp(app);
      await runtimesStopped();
      await rm(dir, { recursive: true, force: true });
    });
    // Both are CommonJS with `exports.default`: Node ESM sees the module object as the default import. The console's
    // types come in more than one copy here (its optional peers differ by package), hence the plain plugin casts.
    app.plugin((DatabaseMemory as unknown as { default: AnyPlugin }).default);
    app.plugin(Server, { host: "127.0.0.1", port });
    app.plugin(Console as unknown as AnyPlugin, { devMode: false });
    app.plugin((AuthModule as unknown as { default: AnyPlugin }).default, { admin: { enabled: true, username: "admin", password: "admin-pw" } });
    app.plugin(MockBot, { selfId: "bot" });
    const kernel = app.plugin(IshikiService, {
      dataPath: dir,
      profiles: {
        main: { model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "standard", standard: { keywords: ["hi"] } } },
        // Waits for an extension no plugin provides; fails because its model takes no images.
        waits: { model: "mock:m", channels: { "mock:other": ["*"] }, extends: { nosuch: {} } },
        fails: { model: "mock:m", channels: { "mock:third": ["*"] }, resources: { imageInput: true } },
      },
      models: { providers: {}, groups: {} },
    });
    const model = scriptedModel([{ calls: [{ id: "c1", name: "send_message", input: { messages: ["hello back"] } }] }, { calls: [{ id: "f", name: "finish" }] }]);
    app.inject(["ishiki"], (ctx) => {
      ctx.ishiki.gateway.defineApi("scripted", (): ProviderV4 => ({ specificationVersion: "v4", languageModel: () => model, embeddingModel: () => { throw new Error("no"); }, imageModel: () => { throw new Error("no"); } }) as ProviderV4);
      ctx.ishiki.gateway.reconfigure({ providers: { mock: { api: "scripted" } } });
    });
    await app.start();
    await app.database.create("user", { name: "bob", authority: 1, password: createHash("sha256").update("bob-pw").digest("hex") } as never);

    const sent: string[] = [];
    app.ishiki.outbound = { send: async (_address, content) => (sent.push(content), [`id-${sent.length}`]) };
    const bot = app.bots["mock:bot"] as unknown as MockBot;
    const long = `hi ${"0123456789".repeat(500)}`;
    await bot.client("alice", "room").receive(long);
    await until(() => sent.length > 0);
    const runtime = app.ishiki.profile("main")!.runtimeIds()[0];
    await (await app.ishiki.runtime("main", { mode: "channel", platform: "mock", selfId: "bot", channelId: "room", isDirect: false })).agent.wait();
    const stream = join(dir, "profiles/main/runtimes/mock%3Abot/room/events.jsonl");
    const before = await readFile(stream);

    const bob = await login(port, "bob", "bob-pw");
    await expect(bob.call("ishiki/overview")).rejects.toThrow("unauthorized");
    await expect(bob.call("ishiki/timeline", runtime, {})).rejects.toThrow("unauthorized");
    await expect(bob.call("ishiki/section", runtime, 1, 0, 0, 0)).rejects.toThrow("unauthorized");
    expect(bob.data.get("ishiki")).toBeNull();
    const anonymous = await connectConsole(port);
    connections.push(anonymous);
    await expect(anonymous.call("ishiki/overview")).rejects.toThrow("unauthorized");

    const admin = await login(port, "admin", "admin-pw");
    const overview = await admin.call<ConsoleOverview>("ishiki/overview");
    // In load order (by id).
    expect(overview.profiles).toEqual([
      expect.objectContaining({ id: "fails", state: "failed", failure: expect.stringContaining("image") }),
      expect.objectContaining({ id: "main", state: "active", missing: [], runtimes: [expect.objectContaining({ id: "main/mock:bot/room", state: "idle", lastTurn: expect.objectContaining({ outcome: "done" }) })] }),
      expect.objectContaining({ id: "waits", state: "waiting", missing: ["ishiki.ext.nosuch"], runtimes: [] }),
    ]);
    expect(admin.data.get("ishiki")).toEqual(expect.objectContaining({ profiles: overview.profiles.map(({ id }) => expect.objectContaining({ id })) }));
    const page = await admin.call<TimelinePage>("ishiki/timeline", runtime, {});
    const said = page.rows.find((row) => row.kind === "message.out")!;
    expect(said.sections[0].text).toBe("hello back");
    expect(page.rows.find((row) => row.kind === "tool.result" && row.callId === said.callId)).toBeDefined();
    // The long message arrives folded and is paged in by `ishiki/section`.
    const asked = page.rows.find((row) => row.kind === "message.in")!;
    expect(asked.sections[0]).toEqual({ label: "content", text: long.slice(0, FOLD_CHARS), length: long.length });
    const rest = await admin.call<{ text: string; length: number }>("ishiki/section", runtime, asked.seq, 0, 0, FOLD_CHARS);
    expect(asked.sections[0].text + rest.text).toBe(long);
    const older = await admin.call<TimelinePage>("ishiki/timeline", runtime, { before: asked.seq + 1, limit: 1 });
    expect(older.rows.map((row) => row.seq)).toEqual([asked.seq]);
    const after = await admin.call<TimelinePage>("ishiki/timeline", runtime, { after: page.total });
    expect(after.rows).toEqual([]);
    await expect(admin.call("ishiki/timeline", "main/../../etc", {})).rejects.toThrow("no runtime main/../../etc");
    expect(await readFile(stream)).toEqual(before);

    // The listeners leave with the kernel (the console itself would keep them).
    kernel.dispose();
    await runtimesStopped();
    await expect(admin.call("ishiki/overview")).rejects.toThrow("not implemented");
  });
});
