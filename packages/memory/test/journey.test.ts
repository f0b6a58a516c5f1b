import { afterEach, describe, expect, it } from "vitest";
import type { Reply } from "./support.js";
import { finish, group, messageId, said, startKernel, systemText, toolResults, until, type Kernel } from "./support.js";

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

const profiles = {
  alice: { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { memory: {} } },
  bob: { model: "mock:m", channels: { "mock:other": ["*"] }, extends: { memory: {} } },
};

const g1 = group("g1");
const g2 = group("g2");
const bobG1 = group("g1", "other");

/** Delivers `event` to the runtime of `domain` and runs one turn with `replies`; returns the prompts it made. */
async function turn(profile: string, domain: typeof g1, events: Parameters<Awaited<ReturnType<Kernel["app"]["ishiki"]["runtime"]>>["deliver"]>[0][], replies: Reply[]) {
  const k = kernel!;
  await until(() => k.app.ishiki.profile(profile)?.status === "active");
  const runtime = await k.app.ishiki.runtime(profile, domain);
  for (const event of events) await runtime.deliver(event);
  await runtime.agent.wait();
  const before = k.model.prompts.length;
  k.queue.push(...replies, finish);
  runtime.wake("Go on.");
  await until(() => k.model.prompts.length >= before + replies.length + 1);
  await runtime.agent.wait();
  return k.model.prompts.slice(before);
}

describe("memory across channels, profiles and restarts (issue 24)", () => {
  it("a fact told in a group is remembered for that person in another channel of the profile, not in another profile; forget removes it; a restart keeps everything", async () => {
    kernel = await startKernel(profiles);
    const told = said(g1, "u1", "我最喜欢吃榴莲，下周三去杭州出差", "小林");
    const saved = await turn("alice", g1, [told], [
      { calls: [{ id: "s1", name: "memory_save", input: { text: "小林最喜欢吃榴莲", scope: "person", source: messageId(told) } }] },
      { calls: [{ id: "s2", name: "memory_save", input: { text: "This group plans a hiking trip in May", scope: "channel", source: messageId(told) } }] },
    ]);
    expect(toolResults(saved[1]).memory_save).toEqual({ type: "json", value: { id: 1, url: "memory://1", status: "saved" } });
    expect(toolResults(saved[2]).memory_save).toEqual({ type: "json", value: { id: 2, url: "memory://2", status: "saved" } });

    // Another channel of the same profile: the person's memory is in the instructions once they speak, and
    // searchable; the first channel's memory is neither.
    const elsewhere = await turn("alice", g2, [said(g2, "u1", "晚上好", "小林")], [
      { calls: [{ id: "q1", name: "memory_search", input: { query: "榴莲" } }] },
      { calls: [{ id: "q2", name: "memory_search", input: { query: "hiking trip" } }] },
    ]);
    expect(systemText(elsewhere[0])).toContain("### 小林(u1)\n- [1] 小林最喜欢吃榴莲");
    expect(systemText(elsewhere[0])).not.toContain("hiking");
    expect(toolResults(elsewhere[1]).memory_search).toMatchObject({ value: { results: [{ id: 1, scope: "person", subject: "u1", label: "小林", source: `mock:g1#${messageId(told)}` }] } });
    expect(toolResults(elsewhere[2]).memory_search).toMatchObject({ value: { results: [] } });

    // The first channel still sees its own channel memory.
    const home = await turn("alice", g1, [said(g1, "u2", "hi")], []);
    expect(systemText(home[0])).toContain("### This channel (mock:g1)\n- [2] This group plans a hiking trip in May");

    // Another profile, same user and channel id: nothing.
    const other = await turn("bob", bobG1, [said(bobG1, "u1", "你好", "小林")], [{ calls: [{ id: "q3", name: "memory_search", input: { query: "榴莲 小林" } }] }]);
    expect(systemText(other[0])).not.toContain("## Memory");
    expect(toolResults(other[1]).memory_search).toMatchObject({ value: { results: [] } });
    const read = await kernel.app.ishiki.runtime("bob", bobG1).then((runtime) => runtime.resources.resolve("memory://1").then(() => "read", (error: Error) => error.message));
    expect(read).toMatch(/no such memory/);

    // A restart keeps both memories.
    await kernel.stop();
    kernel = await startKernel(profiles, { dir: kernel.dir });
    const restarted = await turn("alice", g2, [said(g2, "u1", "我回来了", "小林")], [{ calls: [{ id: "q4", name: "memory_search", input: { query: "小林 喜欢 吃什么" } }] }]);
    expect(systemText(restarted[0])).toContain("- [1] 小林最喜欢吃榴莲");
    expect(toolResults(restarted[1]).memory_search).toMatchObject({ value: { results: [{ id: 1 }] } });
    const runtime = await kernel.app.ishiki.runtime("alice", g1);
    const channelMemory = await runtime.resources.resolve("memory://2");
    expect(channelMemory.type === "text" && channelMemory.text).toContain("This group plans a hiking trip in May");

    // Forget removes it from the instructions and from search, and it stays gone after a restart.
    const forgot = await turn("alice", g2, [said(g2, "u1", "忘了我喜欢什么吧", "小林")], [
      { calls: [{ id: "d1", name: "memory_forget", input: { id: 1 } }] },
      { calls: [{ id: "q5", name: "memory_search", input: { query: "榴莲" } }] },
    ]);
    expect(toolResults(forgot[1]).memory_forget).toEqual({ type: "json", value: { ok: true, id: 1 } });
    expect(toolResults(forgot[2]).memory_search).toMatchObject({ value: { results: [] } });
    const next = await turn("alice", g2, [said(g2, "u1", "还在吗", "小林")], []);
    expect(systemText(next[0])).not.toContain("榴莲");
    await kernel.stop();
    kernel = await startKernel(profiles, { dir: kernel.dir });
    const last = await turn("alice", g2, [said(g2, "u1", "嗨", "小林")], [{ calls: [{ id: "q6", name: "memory_search", input: { query: "榴莲" } }] }]);
    expect(toolResults(last[1]).memory_search).toMatchObject({ value: { results: [] } });
  });
});
