import { MockBot } from "@koishijs/plugin-mock";
import { Context } from "koishi";
import { afterEach, describe, expect, it } from "vitest";
import { createKoishiOutboundPort } from "../src/koishi/index.js";
import { channel, startActive, toolOutputs, readEvents, type KernelApp } from "./runtime-app.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

describe("send_message through the Koishi bots (KP-32, KP-34)", () => {
  it("sends through the bot of the runtime's account and reports a missing bot", async () => {
    kernel = await startActive("p", {
      profiles: { p: { model: "mock:m", channels: { "mock:*": ["*"] } } },
      setup: (app: Context) => app.plugin(MockBot, { selfId: "bot" }),
      replies: [{ calls: [{ id: "s", name: "send_message", input: { messages: ["hello <b>there</b>"] } }] }],
    });
    const app = kernel.app;
    const bot = app.bots["mock:bot"];
    expect(bot).toBeDefined();
    const sent: Array<[string, unknown, string | undefined]> = [];
    // The mock bot answers inside sessions only; record proactive sends instead.
    bot.sendMessage = async (channelId, content, guildId) => {
      sent.push([channelId, content, guildId]);
      return ["platform-1"];
    };
    app.ishiki.outbound = createKoishiOutboundPort(app);
    const runtime = await app.ishiki.runtime("p", channel);
    runtime.wake();
    await runtime.agent.wait();
    expect(sent).toEqual([["c1", "hello <b>there</b>", undefined]]);
    expect(toolOutputs(await readEvents(runtime.home))).toEqual([{ ok: true, ids: ["platform-1"] }]);

    await expect(createKoishiOutboundPort(app).send({ platform: "mock", selfId: "ghost", channelId: "c1" }, "x")).rejects.toThrow("bot mock:ghost is not available");
  });
});
