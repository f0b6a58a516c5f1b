import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, failure, GROUP, invokeOneBot, messageEvent, SELF, startKernel, until, type Kernel } from "./support.js";

const groupOnly = { model: "mock:m", channels: { [`onebot:${SELF}`]: [GROUP] } };
const OTHER_GROUP = "789789";
const MEMBER = "789";
const ADMIN = "321";

describe("onebot-actions: scope, codemode and the destructive gate", () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel({ bare: groupOnly });
    kernel.peer.handlers.set("get_group_member_info", (params) => {
      const user = String(params.user_id);
      if (String(params.group_id) !== GROUP || (user !== MEMBER && user !== ADMIN)) return { failed: { retcode: 1404, message: "member not found" } };
      return { group_id: Number(GROUP), user_id: Number(user), nickname: `user${user}`, role: user === ADMIN ? "admin" : "member" };
    });
    kernel.peer.handlers.set("get_msg", (params) =>
      String(params.message_id) === "77"
        ? { message_id: 77, group_id: Number(GROUP), sender: { user_id: Number(MEMBER) }, message: [{ type: "text", data: { text: "spam" } }] }
        : { message_id: Number(params.message_id), group_id: Number(GROUP), sender: { user_id: Number(SELF) }, message: [] },
    );
    kernel.peer.handlers.set("get_stranger_info", (params) => ({ user_id: Number(params.user_id), nickname: "someone" }));
  }, 30_000);
  afterAll(async () => kernel?.dispose());

  const calls = (action: string) => kernel.peer.calls.filter((item) => item.action === action);

  it("OB-12 scope domain refuses other groups, unknown users and unseen messages; scope account lifts it", async () => {
    const { tools, runtime } = await invokeOneBot(kernel);
    const outside = "target outside this runtime's channels";
    expect((await failure(tools, "onebot_call", { action: "get_group_info", params: { group_id: OTHER_GROUP } })).message).toBe(outside);
    expect((await failure(tools, "onebot_call", { action: "send_private_msg", params: { user_id: 555, message: "hi" } })).message).toBe(outside);
    expect(await call(tools, "onebot_call", { action: "get_stranger_info", params: { user_id: Number(MEMBER) } })).toMatchObject({ nickname: "someone" });
    expect((await failure(tools, "onebot_call", { action: "get_msg", params: { message_id: 77 } })).message).toBe(outside);
    kernel.peer.push(messageEvent("group", MEMBER, 77, "spam"));
    await until(async () => JSON.stringify(await runtime.agent.storage.read()).includes('"messageId":"77"'), 10_000, "fact 77");
    expect(await call(tools, "onebot_call", { action: "get_msg", params: { message_id: 77 } })).toMatchObject({ message_id: 77 });
    expect(calls("get_group_info").length + calls("send_private_msg").length).toBe(0);

    const account = await invokeOneBot(kernel, { scope: "account" });
    await call(account.tools, "onebot_call", { action: "send_private_msg", params: { user_id: 555, message: "hi" } });
    expect(calls("send_private_msg")).toHaveLength(1);
  });

  it("OB-11 destructive actions refuse nested codemode calls", async () => {
    const { tools } = await invokeOneBot(kernel, { maxRisk: "destructive", allow: [{ action: "set_group_ban" }] });
    const refused = await failure(tools, "onebot_call", { action: "set_group_ban", params: { group_id: GROUP, user_id: MEMBER, duration: 60 } }, { caller: "codemode" });
    expect(refused).toEqual({ name: "ToolError", message: "destructive OneBot actions must be called directly" });
    expect(calls("set_group_ban")).toHaveLength(0);
    expect(await call(tools, "onebot_call", { action: "get_group_member_info", params: { group_id: GROUP, user_id: MEMBER } }, { caller: "codemode" })).toMatchObject({ role: "member" });
  });

  it("OB-14 OB-17 an allow rule runs matching destructive calls at once, bounded by groups and maxDuration, and logs them", async () => {
    const { tools, logs } = await invokeOneBot(kernel, { maxRisk: "destructive", allow: [{ action: "set_group_ban", groups: [GROUP], maxDuration: 600 }] });
    expect(await call(tools, "onebot_call", { action: "set_group_ban", params: { group_id: GROUP, user_id: MEMBER, duration: 60 } })).toEqual({ ok: true });
    expect(calls("set_group_ban").at(-1)!.params).toEqual({ group_id: GROUP, user_id: MEMBER, duration: 60 });
    const tooLong = await failure(tools, "onebot_call", { action: "set_group_ban", params: { group_id: GROUP, user_id: MEMBER, duration: 3600 } });
    expect(tooLong.message).toBe('action "set_group_ban": no allow rule covers this call; add one to the extension\'s allow list');
    expect(calls("set_group_ban")).toHaveLength(1);
    expect(logs.filter((log) => log.level === "info").map((log) => log.message)).toEqual([`destructive set_group_ban on group ${GROUP} user ${MEMBER} via onebot:${SELF}: succeeded`]);
  });

  it("OB-13 delete_msg recalls the bot's own message as write and someone else's only under an allow rule", async () => {
    const { tools } = await invokeOneBot(kernel);
    const { message_id } = await call<{ message_id: number }>(tools, "onebot_call", { action: "send_group_msg", params: { group_id: GROUP, message: "oops" } });
    await call(tools, "onebot_call", { action: "delete_msg", params: { message_id } });
    expect(calls("delete_msg").map((item) => String(item.params.message_id))).toEqual([String(message_id)]);
    const others = await failure(tools, "onebot_call", { action: "delete_msg", params: { message_id: 77 } });
    expect(others.message).toBe('action "delete_msg": no allow rule covers this call; add one to the extension\'s allow list');
    expect((await failure(tools, "onebot_call", { action: "delete_msg", params: { message_id: 77 } }, { caller: "codemode" })).message).toBe("destructive OneBot actions must be called directly");
    const allowed = await invokeOneBot(kernel, { allow: [{ action: "delete_msg", users: [MEMBER] }] });
    await call(allowed.tools, "onebot_call", { action: "delete_msg", params: { message_id: 77 } });
    expect(calls("delete_msg").map((item) => String(item.params.message_id))).toEqual([String(message_id), "77"]);
    expect(allowed.logs.some((log) => log.level === "info" && log.message === `destructive delete_msg on group ${GROUP} user ${MEMBER} message 77 via onebot:${SELF}: succeeded`)).toBe(true);
  });

  it("OB-16 protectAdmins refuses acting on admins; the hourly cap stops further destructive executions", async () => {
    const { tools } = await invokeOneBot(kernel, { maxRisk: "destructive", allow: [{ action: "set_group_kick" }], maxDestructivePerHour: 1 });
    expect((await failure(tools, "onebot_call", { action: "set_group_kick", params: { group_id: GROUP, user_id: ADMIN } })).message).toBe("refusing to act on a protected member");
    expect(calls("set_group_kick")).toHaveLength(0);
    await call(tools, "onebot_call", { action: "set_group_kick", params: { group_id: GROUP, user_id: MEMBER } });
    expect(calls("set_group_kick")).toHaveLength(1);
    expect((await failure(tools, "onebot_call", { action: "set_group_kick", params: { group_id: GROUP, user_id: MEMBER } })).message).toBe("destructive action limit reached");
    expect(calls("set_group_kick")).toHaveLength(1);
    const unprotected = await invokeOneBot(kernel, { maxRisk: "destructive", allow: [{ action: "set_group_kick" }], protectAdmins: false });
    await call(unprotected.tools, "onebot_call", { action: "set_group_kick", params: { group_id: GROUP, user_id: ADMIN } });
    expect(calls("set_group_kick").map((item) => String(item.params.user_id))).toEqual([MEMBER, ADMIN]);
  });
});
