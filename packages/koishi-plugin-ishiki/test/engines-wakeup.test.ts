import { afterEach, describe, expect, it } from "vitest";
import type { IshikiEvent } from "../src/types/index.js";
import { channel, fact, labels, readEvents, startActive, until, type KernelApp } from "./runtime-app.js";
import { deferred, type ScriptedReply } from "../../core/test/agent-support.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

// Debounce off: these tests look at which facts wake, not when (EN-27 has its own tests).
const profile = (wakeup: Record<string, unknown> = {}) => ({ model: "mock:m", channels: { "mock:bot": ["*"] }, wakeup: { engine: "standard", standard: { debounceMs: 0, ...wakeup } } });

/** Delivers `event` to a fresh runtime and reports whether a turn was opened. */
async function wakes(event: IshikiEvent, rules: Record<string, unknown> = {}): Promise<boolean> {
  kernel = await startActive("p", { profiles: { p: profile(rules) } });
  const runtime = await kernel.app.ishiki.runtime("p", channel);
  await runtime.deliver(event);
  await runtime.agent.wait();
  await new Promise((resolve) => setTimeout(resolve, 10));
  await runtime.agent.wait();
  const entries = await readEvents(runtime.home);
  expect(labels(entries)[0]).toMatch(/^fact|ishiki.message.deleted$/);
  await kernel.dispose();
  kernel = undefined;
  return labels(entries).includes("turn.start");
}

const deletion: IshikiEvent = {
  id: "del-1",
  timestamp: 1,
  role: "custom",
  type: "ishiki.message.deleted",
  data: { timestamp: 1, platform: "mock", selfId: "bot", channelId: "c1", messageId: "m1", userId: "u1", operatorId: "u1" },
};

describe("standard wakeup engine hit rules (EN-26) and non-waking facts (EN-24)", () => {
  it("EN-26 direct: a private message wakes unless direct is false", async () => {
    expect(await wakes(fact("hello", { isDirect: true }))).toBe(true);
    expect(await wakes(fact("hello", { isDirect: true }), { direct: false })).toBe(false);
  });

  it("EN-26 atSelf: an <at> with the bot's id wakes; @all and other ids do not", async () => {
    expect(await wakes(fact('<at id="bot"/> hi'))).toBe(true);
    expect(await wakes(fact('<at type="all"/> hi'))).toBe(false);
    expect(await wakes(fact('<at id="someone"/> hi'))).toBe(false);
    expect(await wakes(fact('<at id="bot"/> hi'), { atSelf: false })).toBe(false);
  });

  it("EN-26 quoteSelf: quoting the bot wakes", async () => {
    const quote = { id: "q1", content: "earlier", user: { id: "bot", name: "Bot" } };
    expect(await wakes(fact("replying", { quote }))).toBe(true);
    expect(await wakes(fact("replying", { quote }), { quoteSelf: false })).toBe(false);
    expect(await wakes(fact("replying", { quote: { ...quote, user: { id: "u2", name: "Bob" } } }))).toBe(false);
  });

  it("EN-26 keywords: case-insensitive on the text content with markup stripped", async () => {
    expect(await wakes(fact("say <b>HeLLo</b> there"), { keywords: ["hello"] })).toBe(true);
    expect(await wakes(fact('<img src="https://x.invalid/hello.png"/>'), { keywords: ["hello"] })).toBe(false);
    expect(await wakes(fact("nothing relevant"), { keywords: ["hello"] })).toBe(false);
  });

  it("EN-24 non-waking facts are stored; deletions never wake", async () => {
    expect(await wakes(fact("just chatting"))).toBe(false);
    expect(await wakes(deletion)).toBe(false);
  });
});

describe("pending-hit rule (EN-25)", () => {
  async function busyRun(first: ScriptedReply, rest: ScriptedReply[]) {
    const gate = deferred();
    const entered = deferred();
    kernel = await startActive("p", {
      profiles: { p: profile() },
      replies: [
        async () => {
          entered.resolve();
          await gate.promise;
          return first;
        },
        ...rest,
      ],
    });
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake("start");
    await entered.promise;
    await runtime.deliver(fact('<at id="bot"/> while busy'));
    gate.resolve();
    await until(() => runtime.agent.isIdle());
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runtime.agent.wait();
    return labels(await readEvents(runtime.home));
  }

  it("EN-25 a hit seen by a later step of the running turn is cleared: no extra turn", async () => {
    const stored = await busyRun({ calls: [{ id: "r", name: "read", input: { url: "local://x" } }] }, [{ calls: [{ id: "f", name: "finish" }] }]);
    expect(stored.filter((label) => label === "turn.start")).toHaveLength(1);
    expect(stored.indexOf("fact")).toBeLessThan(stored.indexOf("assistant:finish"));
  });

  it("EN-25 a hit the turn never saw opens a turn once the agent is idle", async () => {
    const stored = await busyRun({ calls: [{ id: "f", name: "finish" }] }, [{ calls: [{ id: "f2", name: "finish" }] }]);
    expect(stored.filter((label) => label === "turn.start")).toHaveLength(2);
    expect(stored.indexOf("fact")).toBeLessThan(stored.lastIndexOf("turn.start"));
  });

  it("EN-25 a turn.failed observed after the hit drops it", async () => {
    const stored = await busyRun({ error: new Error("model down") }, [{ calls: [{ id: "f", name: "finish" }] }]);
    expect(stored.filter((label) => label === "turn.start")).toHaveLength(1);
    expect(stored).toContain("turn.failed");
  });
});
