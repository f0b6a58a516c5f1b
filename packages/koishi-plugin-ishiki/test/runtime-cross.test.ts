import { afterEach, describe, expect, it } from "vitest";
import type { CrossDomain } from "../src/extension/index.js";
import { fact, labels, readEvents, startActive, toolOutputs, until, type KernelApp } from "./runtime-app.js";
import { promptTexts } from "../../core/test/agent-support.js";

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

describe("cross mode (EN-11, KP-13)", () => {
  it("EN-11 KP-37 facts of several channels share one stream with channel heads; send_message needs a claimed target", async () => {
    const accounts = { "mock:bot": ["g*"] };
    kernel = await startActive("x", {
      profiles: { x: { model: "mock:m", mode: "cross", channels: accounts } },
      replies: [
        { calls: [{ id: "s0", name: "send_message", input: { messages: ["nowhere"], target: { sid: "mock:bot", channelId: "other" } } }] },
        { calls: [{ id: "s1", name: "send_message", input: { messages: ["hi both"], target: { sid: "mock:bot", channelId: "g2" } } }] },
      ],
    });
    const domain: CrossDomain = { mode: "cross", accounts };
    const runtime = await kernel.app.ishiki.runtime("x", domain);
    expect(runtime.id).toBe("x/main");
    await runtime.deliver(fact("from one", { channelId: "g1" }));
    await runtime.deliver(fact('<at id="bot"/> from two', { channelId: "g2" }));
    await until(() => kernel!.model.prompts.length === 2);
    await runtime.agent.wait();
    const rendered = promptTexts(kernel.model.prompts[0]).find((line) => line.includes("from one")) ?? "";
    expect(rendered.replace(/^user:/, "").split("\n").filter((line) => line.startsWith("[#"))).toEqual(["[#mock:bot/g1]", "[#mock:bot/g2]"]);
    // KP-37: in cross mode the base text explains the channel heads and `target`.
    expect(String(kernel.model.prompts[0].prompt[0].content)).toContain("each run of lines starts with its channel head [#<platform>:<selfId>/<channelId>]; send_message needs a target.");
    const [refused, sent] = toolOutputs(await readEvents(runtime.home));
    expect(JSON.stringify(refused)).toContain("target mock:bot/other is outside this profile's channels");
    expect(sent).toEqual({ ok: true, ids: ["sent-1"] });
    expect(kernel.outbound.sent.map((message) => message.address)).toEqual([{ platform: "mock", selfId: "bot", channelId: "g2" }]);
    expect(labels(await readEvents(runtime.home)).at(-1)).toBe("turn.done");
  });
});
