import { afterEach, describe, expect, it } from "vitest";
import type { CrossDomain } from "koishi-plugin-ishiki";
import { call, group, invokeMemory, messageId, said, startKernel, until, type Kernel } from "./support.js";

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const bare = { bare: { model: "mock:m", channels: { "mock:bot": ["*"] } } };

async function failure(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "no failure",
    (error: Error) => `${error.name}: ${error.message}`,
  );
}

describe("memory tools and memory:// (issue 24)", () => {
  it("save checks text, source and scope; duplicates are not stored twice; revise keeps id and scope", async () => {
    kernel = await startKernel(bare);
    const g1 = group("g1");
    const { runtime, tools } = await invokeMemory(kernel, "bare", g1, { maxTextChars: 40 });
    const fact = said(g1, "u1", "I moved to Lisbon", "Carol");
    await runtime.deliver(fact);
    await until(async () => (await runtime.agent.storage.read()).some((entry) => entry.type === "message"));

    expect(await failure(call(tools, "memory_save", { text: "  " }))).toBe("ToolError: text is empty");
    expect(await failure(call(tools, "memory_save", { text: "x".repeat(41) }))).toBe("ToolError: text has 41 characters; the limit is 40: keep one fact per memory");
    expect(await failure(call(tools, "memory_save", { text: "Carol lives in Lisbon", source: "nope" }))).toMatch(/source nope: no such message in this conversation/);
    expect(await failure(call(tools, "memory_save", { text: "Carol lives in Lisbon" }))).toMatch(/a person memory needs subject/);
    expect(await failure(call(tools, "memory_save", { text: "rules", scope: "channel", subject: "g2" }))).toMatch(/belong to channel g1/);

    // The source message's author is the default subject; the stored source names the fact.
    const first = await call<{ id: number; status: string }>(tools, "memory_save", { text: "Carol lives in Lisbon", source: `#${messageId(fact)}` });
    expect(first).toEqual({ id: 1, url: "memory://1", status: "saved" });
    expect(await call(tools, "memory_save", { text: "Carol lives in Lisbon", subject: "u1" })).toEqual({ id: 1, url: "memory://1", status: "duplicate" });
    expect(await failure(call(tools, "memory_save", { id: 1, text: "Carol lives in Porto", scope: "channel" }))).toMatch(/is a person memory; to move it/);
    expect(await call(tools, "memory_save", { id: 1, text: "Carol lives in Porto" })).toEqual({ id: 1, url: "memory://1", status: "revised" });
    expect(await failure(call(tools, "memory_save", { id: 99, text: "x" }))).toBe("ToolError: memory 99 not found");

    const found = await call<{ results: Array<Record<string, unknown>> }>(tools, "memory_search", { query: "Porto" });
    expect(found.results).toEqual([
      expect.objectContaining({ id: 1, scope: "person", subject: "u1", label: "Carol", text: "Carol lives in Porto", source: `mock:g1#${messageId(fact)}`, url: "memory://1" }),
    ]);
    expect((await call<{ results: unknown[] }>(tools, "memory_search", { query: "Lisbon" })).results).toEqual([]);
    expect(await failure(call(tools, "memory_search", { query: "Porto", subject: "u1" }))).toBe("ToolError: subject needs scope (person or channel)");
    expect((await call<{ results: unknown[] }>(tools, "memory_search", { query: "Porto", scope: "person", subject: "u2" })).results).toEqual([]);
    expect(await failure(call(tools, "memory_forget", { id: 7 }))).toBe("ToolError: memory 7 not found");
  });

  it("memory:// shows one memory or a subject's list, and only what the runtime may see", async () => {
    kernel = await startKernel(bare);
    const g1 = group("g1");
    const g2 = group("g2");
    const one = await invokeMemory(kernel, "bare", g1);
    await call(one.tools, "memory_save", { text: "小林喜欢榴莲", subject: "u1" });
    await call(one.tools, "memory_save", { text: "本群周六晚上有狼人杀", scope: "channel" });
    await call(one.tools, "memory_save", { text: "机器人叫小意", scope: "profile" });
    const read = async (domain: typeof g1, url: string) => {
      const runtime = await kernel!.app.ishiki.runtime("bare", domain);
      return runtime.resources.resolve(url).then(
        (payload) => (payload.type === "text" ? payload.text : payload.type),
        (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
      );
    };
    expect(await read(g1, "memory://1")).toMatch(/^memory 1 about person u1; saved .+\n小林喜欢榴莲$/);
    expect(await read(g1, "memory://person/u1")).toBe("[1] 小林喜欢榴莲");
    expect(await read(g1, "memory://channel")).toBe("[2] 本群周六晚上有狼人杀");
    expect(await read(g1, "memory://profile")).toBe("[3] 机器人叫小意");
    expect(await read(g1, "memory://elsewhere")).toMatch(/^invalid_resource_uri: /);
    // Another channel's runtime of the same profile: the person and the profile, not g1's channel memory.
    await invokeMemory(kernel, "bare", g2);
    expect(await read(g2, "memory://1")).toContain("小林喜欢榴莲");
    expect(await read(g2, "memory://2")).toBe("resource_not_found: memory://2: no such memory here");
    expect(await read(g2, "memory://channel/g1")).toMatch(/^resource_not_found: /);
    expect(await read(g2, "memory://channel")).toBe("no memories");
  });

  it("a cross runtime resolves subjects through the facts it saw and sees every channel of its profile", async () => {
    kernel = await startKernel({ hub: { model: "mock:m", mode: "cross", channels: { "mock:bot": ["*"], "other:bot": ["*"] } } });
    const cross: CrossDomain = { mode: "cross", accounts: { "mock:bot": ["*"], "other:bot": ["*"] } };
    await until(() => kernel!.app.ishiki.profile("hub")?.status === "active");
    const { runtime, tools } = await invokeMemory(kernel, "hub", cross);
    expect(await failure(call(tools, "memory_save", { text: "likes tea", subject: "u9" }))).toMatch(/cannot tell the platform/);
    const fact = said({ ...group("g5"), platform: "other" }, "u9", "I like tea", "Zed");
    await runtime.deliver(fact);
    await until(async () => (await runtime.agent.storage.read()).some((entry) => entry.type === "message"));
    expect(await call(tools, "memory_save", { text: "Zed likes tea", subject: "u9" })).toMatchObject({ status: "saved" });
    expect(await call(tools, "memory_save", { text: "g5 speaks English", scope: "channel", source: messageId(fact) })).toMatchObject({ status: "saved" });
    const results = (await call<{ results: Array<{ scope: string; subject: string }> }>(tools, "memory_search", { query: "tea English" })).results;
    expect(results.map((result) => [result.scope, result.subject]).sort()).toEqual([["channel", "g5"], ["person", "u9"]]);
    const rows = await kernel.app.database.get("ishiki_memory", {});
    expect(rows.map((row) => row.subject).sort()).toEqual(["other:g5", "other:u9"]);
  });
});
