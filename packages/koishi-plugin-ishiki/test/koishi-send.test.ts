import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { typingDelay } from "../src/koishi/typing-delay.js";
import { DEFAULT_TYPING } from "../src/profile/index.js";
import { readEvents, toolOutputs } from "./runtime-app.js";
import { startMockKernel, until, type MockKernel } from "./koishi-app.js";

let kernel: MockKernel | undefined;
let server: Server | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
  server?.close();
  server = undefined;
});

const channel = { mode: "channel" as const, platform: "mock", selfId: "bot", channelId: "c", isDirect: false };

describe("typing delay (KP-33)", () => {
  it("KP-33 counts CJK at charPerSecond and other text at 1.5 × charPerSecond, jitters by [0.8, 1.2] and clamps", () => {
    const wide = { baseDelay: 500, charPerSecond: 5, minDelay: 0, maxDelay: 100_000 };
    // 5 Han characters = 1 s; 15 Latin letters = 2 s at 7.5/s; markup and whitespace do not count.
    expect(typingDelay("你好世界啊", wide, () => 0.5)).toBeCloseTo(1500);
    expect(typingDelay("<b>abcde fghij</b> klmno", wide, () => 0.5)).toBeCloseTo(2500);
    expect(typingDelay("你好世界啊", wide, () => 0)).toBeCloseTo(1200);
    expect(typingDelay("你好世界啊", wide, () => 1)).toBeCloseTo(1800);
    expect(typingDelay("ただいま한국", wide, () => 0.5)).toBeCloseTo(500 + 1000 * (6 / 5));
    expect(typingDelay("a".repeat(1000), DEFAULT_TYPING, () => 0.5)).toBe(4000);
    expect(typingDelay("a", DEFAULT_TYPING, () => 0.5)).toBe(800);
    expect(typingDelay('<img src="x"/>', wide, () => 0.5)).toBe(0);
    expect(typingDelay("hello", { ...wide, charPerSecond: 0, minDelay: 42 }, () => 0.5)).toBe(42);
  });
});

describe("send_message over Koishi (KP-31 .. KP-34)", () => {
  it("KP-33 the second message of one call waits; the first does not", async () => {
    // A ten-minute pause on a clock the test moves: the assertions hold however slow the machine is.
    const pause = 600_000;
    kernel = await startMockKernel({
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, typing: { baseDelay: 0, charPerSecond: 5, minDelay: pause, maxDelay: pause } } },
      replies: [{ calls: [{ id: "s", name: "send_message", input: { messages: ["one", "two"] } }] }],
    });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    const times: number[] = [];
    kernel.app.ishiki.outbound = { send: async () => (times.push(Date.now()), [`id-${times.length}`]) };
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], shouldAdvanceTime: true });
    try {
      const started = Date.now();
      runtime.wake();
      await until(() => times.length === 1, 10_000);
      expect(times[0] - started).toBeLessThan(pause);
      await vi.advanceTimersByTimeAsync(pause);
      await runtime.agent.wait();
      expect(times).toHaveLength(2);
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(pause);
    } finally {
      vi.useRealTimers();
    }
  });

  it("KP-31 KP-32 media on the runtime's schemes go out as data: URLs; file: and unknown schemes are removed and returned in dropped; an emptied message is not sent", async () => {
    server = createServer((_req, res) => res.end(Buffer.from([1, 2, 3])));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a.bin`;
    let asset = "";
    kernel = await startMockKernel({
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, typing: { minDelay: 0, maxDelay: 0 } } },
      replies: [
        () => ({
          calls: [{ id: "s", name: "send_message", input: { messages: [`look <img src="${asset}"/> <img src="https://example.org/x.png"/>`, '<img src="file:///etc/passwd"/>', 'x <img src="gopher://h/1"/>'] } }],
        }),
      ],
    });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    const sent: string[] = [];
    kernel.app.ishiki.outbound = { send: async (_address, content) => (sent.push(content), [`id-${sent.length}`]) };
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    asset = await runtime.resources.store.registerAsset(url, { mediaType: "image/png" });
    runtime.wake();
    await runtime.agent.wait();
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^look <img src="data:[a-z/-]+;base64,AQID"\/> <img src="https:\/\/example.org\/x.png"\/>$/);
    expect(sent[1]).toBe("x ");
    expect(toolOutputs(await readEvents(runtime.home))).toEqual([
      {
        ok: true,
        ids: ["id-1", "id-2"],
        dropped: [
          { src: "file:///etc/passwd", code: "file_scheme" },
          { src: "gopher://h/1", code: "unsupported_scheme" },
        ],
      },
    ]);
  });

  it("KP-32 the first failure stops sending and reports what was sent", async () => {
    kernel = await startMockKernel({
      profiles: { p: { model: "mock:m", channels: { "mock:bot": ["*"] }, typing: { minDelay: 0, maxDelay: 0 } } },
      replies: [{ calls: [{ id: "s", name: "send_message", input: { messages: ["a", "b", "c"] } }] }, { calls: [{ id: "f", name: "finish" }] }],
    });
    await until(() => kernel!.app.ishiki.profile("p")?.status === "active");
    let count = 0;
    kernel.app.ishiki.outbound = {
      send: async () => {
        count += 1;
        if (count === 2) throw new TypeError("platform refused");
        return [`id-${count}`];
      },
    };
    const runtime = await kernel.app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    expect(count).toBe(2);
    expect(toolOutputs(await readEvents(runtime.home))[0]).toEqual({ ok: false, error: { name: "TypeError", message: "platform refused" }, sent: ["id-1"], failedAt: 1 });
  });
});
