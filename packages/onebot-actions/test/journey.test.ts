import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GROUP, SELF, startKernel, until, type Kernel } from "./support.js";

const alice = {
  model: "mock:m",
  channels: { [`onebot:${SELF}`]: [GROUP] },
  extends: { "onebot-actions": { config: { mode: "typed" } } },
};

function mention(messageId: number, text: string) {
  return {
    post_type: "message",
    message_type: "group",
    sub_type: "normal",
    time: Math.floor(Date.now() / 1000),
    self_id: Number(SELF),
    user_id: 789,
    group_id: Number(GROUP),
    message_id: messageId,
    message: [{ type: "at", data: { qq: SELF } }, { type: "text", data: { text } }],
    raw_message: text,
    font: 0,
    sender: { user_id: 789, nickname: "user789", card: "" },
  };
}

describe("onebot-actions: through the kernel", () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel({ alice }, [
      { calls: [{ id: "c1", name: "onebot_get_group_info", input: { group_id: Number(GROUP) } }] },
      { calls: [{ id: "f", name: "finish" }] },
    ]);
    kernel.peer.handlers.set("get_group_info", () => ({ group_id: Number(GROUP), group_name: "tea room", member_count: 3 }));
  }, 30_000);
  afterAll(async () => kernel?.dispose());

  it("OB-10 OB-23 a profile enabling the extension gets typed tools and the instructions; the model's call reaches the peer", async () => {
    await until(() => kernel.app.ishiki.profile("alice")?.status === "active", 10_000, "alice active");
    kernel.peer.push(mention(41, " how many are we?"));
    await until(() => kernel.peer.calls.some((item) => item.action === "get_group_info"), 15_000, "get_group_info");
    await until(() => kernel.model.prompts.length >= 2, 10_000, "second model call");
    const first = kernel.model.prompts[0];
    const names = (first.tools ?? []).map((item) => item.name);
    expect(names).toContain("onebot_get_group_info");
    expect(names).toContain("onebot_send_group_notice");
    expect(names.some((name) => name === "onebot_set_group_kick" || name === "onebot_get_cookies")).toBe(false);
    const system = JSON.stringify(first.prompt.filter((message) => message.role === "system"));
    expect(system).toContain("## OneBot actions");
    expect(system).toContain(`onebot://${SELF}/group/<gid>`);
    expect(system).toContain("/group/<gid>/members");
    expect(JSON.stringify(kernel.model.prompts[1].prompt)).toContain("tea room");
  });
});
