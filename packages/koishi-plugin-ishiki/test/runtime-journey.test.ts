import { Buffer } from "node:buffer";
import { afterEach, describe, expect, it } from "vitest";
import { ResourceError, type ResourcePayload, type SchemeHandler } from "../src/resources/index.js";
import { Extension, type ExtensionHost, type ExtensionInstance } from "../src/extension/index.js";
import type { Context } from "koishi";
import { channel, fact, labels, readEvents, startKernel, until, type KernelApp } from "./runtime-app.js";
import { promptTexts } from "../../core/test/agent-support.js";

class Clock implements SchemeHandler {
  readonly scheme = "clock";
  resolve(input: string): ResourcePayload {
    if (new URL(input).hostname !== "now") throw new ResourceError("resource_not_found", "expected clock://now");
    const text = "2026-11-30T01:02:03.000Z";
    return { type: "text", url: input, text, size: Buffer.byteLength(text) };
  }
}

class ClockExtension extends Extension {
  constructor(ctx: Context) {
    super(ctx, "clock");
  }
  [Extension.invoke](host: ExtensionHost): ExtensionInstance {
    const dispose = host.resources.attach(new Clock());
    return { stop: dispose };
  }
}

let kernel: KernelApp | undefined;
afterEach(async () => {
  await kernel?.dispose();
  kernel = undefined;
});

describe("seed journey without codemode", () => {
  it("OV-18 OV-23 a delivered message wakes the runtime, read clock://now, send_message, stop rule, stored order", async () => {
    kernel = await startKernel({
      profiles: { alice: { model: "mock:m", channels: { "mock:bot": ["*"] }, extends: { clock: {} } } },
      setup: (app) => app.plugin(ClockExtension),
      replies: [
        { calls: [{ id: "r1", name: "read", input: { url: "clock://now" } }] },
        { calls: [{ id: "s1", name: "send_message", input: { messages: ["It is 01:02 UTC."] } }] },
        { text: "should never be asked" },
      ],
    });
    await until(() => kernel!.app.ishiki.profile("alice")?.status === "active");
    const runtime = await kernel.app.ishiki.runtime("alice", channel);
    await runtime.deliver(fact("<at id=\"bot\"/> what time is it?"));
    await until(async () => labels(await readEvents(runtime.home)).includes("turn.done"));
    await runtime.agent.wait();

    expect(kernel.model.prompts).toHaveLength(2);
    const secondPrompt = promptTexts(kernel.model.prompts[1]).join("\n");
    expect(secondPrompt).toContain("2026-11-30T01:02:03.000Z");
    expect(kernel.outbound.sent.map((sent) => sent.content)).toEqual(["It is 01:02 UTC."]);
    expect(kernel.outbound.sent[0].address).toEqual({ platform: "mock", selfId: "bot", channelId: "c1" });
    expect(labels(await readEvents(runtime.home))).toEqual(["fact", "turn.start", "assistant:read", "tool:read", "assistant:send_message", "tool:send_message", "turn.done"]);
  });
});
