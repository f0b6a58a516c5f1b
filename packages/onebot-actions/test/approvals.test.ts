import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, failure, GROUP, invokeOneBot, SELF, startKernel, until, type Kernel } from "./support.js";

const bare = { model: "mock:m", channels: { [`onebot:${SELF}`]: [GROUP] } };
const APPROVER = "10001";
const STRANGER = "20002";
const MEMBER = "789";
const approval = { approvers: [`onebot:${APPROVER}`], timeoutSeconds: 600 };

function privateMessage(userId: string, messageId: number, text: string) {
  return {
    post_type: "message",
    message_type: "private",
    sub_type: "friend",
    time: Math.floor(Date.now() / 1000),
    self_id: Number(SELF),
    user_id: Number(userId),
    message_id: messageId,
    message: [{ type: "text", data: { text } }],
    raw_message: text,
    font: 0,
    sender: { user_id: Number(userId), nickname: `user${userId}` },
  };
}

describe("onebot-actions: approvals (OB-15, OB-17)", () => {
  let kernel: Kernel;
  let messageId = 500;
  beforeAll(async () => {
    kernel = await startKernel({ bare });
    kernel.peer.handlers.set("get_group_member_info", (params) => ({ group_id: Number(GROUP), user_id: Number(params.user_id), role: "member" }));
  }, 30_000);
  afterAll(async () => kernel?.dispose());

  const calls = (action: string) => kernel.peer.calls.filter((item) => item.action === action);
  const privateTo = (user: string) => calls("send_private_msg").filter((item) => String(item.params.user_id) === user).map((item) => JSON.stringify(item.params.message));
  const prompts = () => JSON.stringify(kernel.model.prompts.map((prompt) => prompt.prompt));

  it("OB-15 OB-17 pending -> approved by an approver -> run, and the runtime is woken with the outcome", async () => {
    const { tools, logs } = await invokeOneBot(kernel, { maxRisk: "destructive", approval });
    const pending = await call<{ ok: boolean; status: string; approvalId: string; expiresAt: string }>(tools, "onebot_call", { action: "set_group_kick", params: { group_id: GROUP, user_id: MEMBER } });
    expect(pending).toMatchObject({ ok: false, status: "pending_approval" });
    expect(pending.approvalId).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}$/);
    expect(Date.parse(pending.expiresAt) - Date.now()).toBeGreaterThan(590_000);
    expect(calls("set_group_kick")).toHaveLength(0);
    const asked = privateTo(APPROVER).join("\n");
    expect(asked).toContain(`Ishiki approval ${pending.approvalId}`);
    expect(asked).toContain("set_group_kick");
    expect(asked).toContain(`ishiki.approve ${pending.approvalId}`);

    kernel.peer.push(privateMessage(STRANGER, (messageId += 1), `ishiki.approve ${pending.approvalId}`));
    await until(() => privateTo(STRANGER).length > 0, 10_000, "reply to the stranger");
    expect(privateTo(STRANGER)[0]).toContain("is not an approver");
    expect(calls("set_group_kick")).toHaveLength(0);

    kernel.peer.push(privateMessage(APPROVER, (messageId += 1), `ishiki.approve ${pending.approvalId}`));
    await until(() => calls("set_group_kick").length === 1, 10_000, "the approved kick");
    expect(calls("set_group_kick")[0].params).toEqual({ group_id: GROUP, user_id: MEMBER });
    await until(() => prompts().includes(`Approval ${pending.approvalId} granted by onebot:${APPROVER}: set_group_kick succeeded.`), 10_000, "the wake");
    await until(() => privateTo(APPROVER).some((text) => text.includes(`Approval ${pending.approvalId} granted`)), 10_000, "reply to the approver");
    const info = logs.filter((log) => log.level === "info").map((log) => log.message);
    expect(info.some((line) => line.startsWith(`approval ${pending.approvalId} requested for destructive set_group_kick on group ${GROUP} user ${MEMBER}`))).toBe(true);
    expect(info).toContain(`destructive set_group_kick on group ${GROUP} user ${MEMBER} via onebot:${SELF}: succeeded`);
    expect(info).toContain(`approval ${pending.approvalId} for set_group_kick granted by onebot:${APPROVER}: succeeded`);

    kernel.peer.push(privateMessage(APPROVER, (messageId += 1), `ishiki.approve ${pending.approvalId}`));
    await until(() => privateTo(APPROVER).some((text) => text.includes("no such pending approval")), 10_000, "second approval refused");
    expect(calls("set_group_kick")).toHaveLength(1);
  });

  it("OB-15 denial and expiry wake the runtime without running the action; codemode still refuses", async () => {
    const { tools } = await invokeOneBot(kernel, { maxRisk: "destructive", approval });
    expect((await failure(tools, "onebot_call", { action: "set_group_ban", params: { group_id: GROUP, user_id: MEMBER } }, { caller: "codemode" })).message).toBe(
      "destructive OneBot actions must be called directly",
    );
    const denied = await call<{ approvalId: string }>(tools, "onebot_call", { action: "set_group_ban", params: { group_id: GROUP, user_id: MEMBER, duration: 60 } });
    kernel.peer.push(privateMessage(APPROVER, (messageId += 1), `ishiki.deny ${denied.approvalId}`));
    await until(() => prompts().includes(`Approval ${denied.approvalId} denied by onebot:${APPROVER}: set_group_ban.`), 10_000, "the denial wake");
    expect(calls("set_group_ban")).toHaveLength(0);

    const short = await invokeOneBot(kernel, { maxRisk: "destructive", approval: { approvers: [`onebot:${APPROVER}`], timeoutSeconds: 1 } });
    const expiring = await call<{ approvalId: string }>(short.tools, "onebot_call", { action: "set_group_whole_ban", params: { group_id: GROUP } });
    await until(() => prompts().includes(`Approval ${expiring.approvalId} expired: set_group_whole_ban.`), 10_000, "the expiry wake");
    kernel.peer.push(privateMessage(APPROVER, (messageId += 1), `ishiki.approve ${expiring.approvalId}`));
    await until(() => privateTo(APPROVER).filter((text) => text.includes("no such pending approval")).length >= 2, 10_000, "expired approval refused");
    expect(calls("set_group_whole_ban")).toHaveLength(0);
  });
});
