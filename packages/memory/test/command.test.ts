import { readFile } from "node:fs/promises";
import { MockBot } from "@koishijs/plugin-mock";
import { afterEach, describe, expect, it } from "vitest";
import { call, group, invokeMemory, startKernel, type Kernel } from "./support.js";

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const profiles = {
  alice: { model: "mock:m", channels: { "mock:bot": ["*"] } },
  bob: { model: "mock:m", channels: { "mock:other": ["*"] } },
};

describe("ishiki.memory (issue 24)", () => {
  it("a user lists, shows, exports and forgets their own memories in every profile; other people's and channels' only for admins", async () => {
    kernel = await startKernel(profiles, { plugins: (app) => void app.plugin(MockBot, { selfId: "cmd" }) });
    const alice = await invokeMemory(kernel, "alice", group("g1"));
    const bob = await invokeMemory(kernel, "bob", group("g1", "other"));
    await call(alice.tools, "memory_save", { text: "u1 likes durian", subject: "u1" });
    await call(alice.tools, "memory_save", { text: "u2 plays chess", subject: "u2" });
    await call(alice.tools, "memory_save", { text: "g1 plays werewolf on Saturdays", scope: "channel" });
    await call(bob.tools, "memory_save", { text: "u1 is a nurse", subject: "u1" });
    await kernel.app.database.createUser("mock", "boss", { authority: 4 });
    const user = kernel.app.mock.client("u1", "g1");
    const boss = kernel.app.mock.client("boss", "g1");
    const say = async (client: typeof user, text: string) => (await client.receive(text)).join("\n");

    expect(await say(user, "ishiki.memory")).toBe("共 2 条记忆：\n#1 [alice · person u1] u1 likes durian\n#4 [bob · person u1] u1 is a nurse");
    expect(await say(user, "ishiki.memory.list -p bob")).toBe("共 1 条记忆：\n#4 [bob · person u1] u1 is a nurse");
    expect(await say(user, "ishiki.memory -u u2")).toBe("只有管理员可以查看或删除他人与频道的记忆。");
    expect(await say(user, "ishiki.memory -c")).toBe("只有管理员可以查看或删除他人与频道的记忆。");
    expect(await say(user, "ishiki.memory.show 2")).toBe("没有 id 为 2 的记忆，或你无权查看。");
    expect(await say(user, "ishiki.memory.forget 2")).toBe("没有 id 为 2 的记忆，或你无权查看。");
    expect(await say(user, "ishiki.memory.show 1")).toMatch(/^#1 \[alice · person u1\] u1 likes durian\nsaved /);
    const exported = JSON.parse(await say(user, "ishiki.memory.export")) as Array<Record<string, unknown>>;
    expect(exported.map((memory) => [memory.id, memory.profile, memory.text])).toEqual([[1, "alice", "u1 likes durian"], [4, "bob", "u1 is a nurse"]]);
    expect(exported[0]).not.toHaveProperty("embedding");

    expect(await say(boss, "ishiki.memory -u u2")).toBe("共 1 条记忆：\n#2 [alice · person u2] u2 plays chess");
    expect(await say(boss, "ishiki.memory -c")).toBe("共 1 条记忆：\n#3 [alice · channel g1] g1 plays werewolf on Saturdays");
    const done = await say(boss, "ishiki.memory.export -p alice");
    const file = /^已导出 3 条记忆到 (.+)$/.exec(done)?.[1];
    expect(file, done).toBeDefined();
    const dump = JSON.parse(await readFile(file!, "utf8")) as { profile: string; memories: Array<{ id: number }> };
    expect(dump.profile).toBe("alice");
    expect(dump.memories.map((memory) => memory.id)).toEqual([1, 2, 3]);
    expect(await say(boss, "ishiki.memory.forget 2")).toBe("已删除 1 条记忆。");

    // Forgetting through the command reaches the runtimes' index at once.
    expect(await say(user, "ishiki.memory.forget --all")).toBe("已删除 2 条记忆。");
    expect((await call<{ results: unknown[] }>(alice.tools, "memory_search", { query: "durian chess" })).results).toEqual([]);
    expect((await call<{ results: unknown[] }>(bob.tools, "memory_search", { query: "nurse" })).results).toEqual([]);
    expect(await say(user, "ishiki.memory")).toBe("没有记忆。");
  });
});
