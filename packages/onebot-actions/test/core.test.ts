import { Service } from "koishi";
import type { ExtensionHost } from "koishi-plugin-ishiki";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OneBotActionsSettings, type OneBotActionsExtension } from "../src/index.js";
import { call, failure, GROUP, groupChannel, invokeOneBot, SELF, startKernel, type Kernel } from "./support.js";

const bare = { model: "mock:m", channels: { [`onebot:${SELF}`]: [GROUP, "private:*"] } };

describe("onebot-actions: modes, exposure and calls", () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel({ bare });
    kernel.peer.handlers.set("get_group_info", (params) =>
      String(params.group_id) === GROUP ? { group_id: Number(GROUP), group_name: "tea room", member_count: 3 } : { failed: { retcode: 1404, message: "group not found" } },
    );
  }, 30_000);
  afterAll(async () => kernel?.dispose());

  it("OB-1 invoke contributes nothing when the domain has no onebot account", async () => {
    const { host } = await invokeOneBot(kernel);
    const service = (kernel.app as unknown as Record<string, OneBotActionsExtension>)["ishiki.ext.onebot-actions"];
    const mock = { mode: "channel", platform: "mock", selfId: "bot", channelId: "c1", isDirect: false } as const;
    const logs: string[] = [];
    const logger = { ...host.logger, debug: (message: string) => logs.push(message) };
    const instance = await service[Service.invoke]({ ...host, domain: mock, logger } as unknown as ExtensionHost, new OneBotActionsSettings({} as OneBotActionsSettings));
    expect(instance).toBeUndefined();
    expect(logs.join("\n")).toMatch(/no onebot account/);
  });

  it("OB-1 a cross runtime with several OneBot accounts requires account", async () => {
    const cross = { mode: "cross", accounts: { [`onebot:${SELF}`]: [GROUP], "onebot:999": ["1"] } } as const;
    const { tools } = await invokeOneBot(kernel, { scope: "account" }, { hostDomain: cross });
    expect((await failure(tools, "onebot_call", { action: "get_login_info" })).message).toBe("account is required: this runtime has several OneBot accounts (onebot:123, onebot:999)");
    expect((await failure(tools, "onebot_call", { action: "get_login_info", account: "onebot:5" })).message).toMatch(/^account "onebot:5" is not a OneBot account/);
    expect(await call(tools, "onebot_call", { action: "get_login_info", account: `onebot:${SELF}` })).toEqual({ user_id: Number(SELF), nickname: "ishiki-bot" });
  });

  it("OB-2 OB-9 generic onebot_call reaches the peer through the adapter and returns data", async () => {
    const { tools } = await invokeOneBot(kernel);
    expect(Object.keys(tools)).toEqual(["onebot_actions", "onebot_call"]);
    const data = await call(tools, "onebot_call", { action: "get_group_info", params: { group_id: Number(GROUP) } });
    expect(data).toMatchObject({ group_name: "tea room" });
    expect(kernel.peer.calls.at(-1)).toEqual({ action: "get_group_info", params: { group_id: Number(GROUP) } });
  });

  it("OB-2 a failed status becomes the ToolError with retcode and message; timeoutMs bounds the call", async () => {
    const { tools } = await invokeOneBot(kernel, { scope: "account", timeoutMs: 300 });
    const failed = await failure(tools, "onebot_call", { action: "get_group_info", params: { group_id: 1 } });
    expect(failed).toEqual({ name: "ToolError", message: "OneBot action get_group_info failed: retcode 1404: group not found" });
    kernel.peer.handlers.set("get_status", () => new Promise(() => undefined));
    const started = Date.now();
    expect((await failure(tools, "onebot_call", { action: "get_status" })).message).toBe("OneBot action get_status failed: timed out after 300 ms");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("OB-9 onebot_actions lists exposed entries by query and category; unexposed and secret actions are refused", async () => {
    const { tools } = await invokeOneBot(kernel, { include: ["get_cookies"] });
    const { actions } = await call<{ actions: Array<{ action: string; summary: string; params: object }> }>(tools, "onebot_actions", { query: "all members" });
    expect(actions.map((item) => item.action)).toEqual(["get_group_member_list"]);
    expect(actions[0].params).toMatchObject({ type: "object", required: ["group_id"] });
    const files = await call<{ actions: Array<{ action: string }> }>(tools, "onebot_actions", { category: "file" });
    expect(files.actions.map((item) => item.action)).toContain("upload_group_file");
    expect(files.actions.map((item) => item.action)).not.toContain("delete_group_file");
    const all = await call<{ actions: Array<{ action: string }> }>(tools, "onebot_actions", {});
    expect(all.actions.map((item) => item.action)).not.toContain("get_cookies");
    expect((await failure(tools, "onebot_call", { action: "set_group_kick", params: { group_id: GROUP, user_id: 1 } })).message).toBe(
      'action "set_group_kick" is not available (mode generic, maxRisk write)',
    );
    expect((await failure(tools, "onebot_call", { action: "get_cookies", params: {} })).message).toMatch(/^action "get_cookies" is not available/);
    expect((await failure(tools, "onebot_call", { action: "get_group_info", params: {} })).message).toBe('action "get_group_info": invalid params.group_id: required');
    expect(kernel.peer.calls.some((item) => item.action === "set_group_kick" || item.action === "get_cookies")).toBe(false);
  });

  it("OB-7 OB-8 implementation auto-detection decides which extension actions are exposed", async () => {
    const napcat = await invokeOneBot(kernel, { mode: "typed" });
    expect(Object.keys(napcat.tools)).toContain("onebot_group_poke");
    kernel.peer.handlers.set("get_version_info", () => ({ app_name: "some-new-impl", app_version: "1", protocol_version: "v11" }));
    try {
      const plain = await invokeOneBot(kernel, { mode: "typed" });
      expect(Object.keys(plain.tools)).toContain("onebot_send_group_msg");
      expect(Object.keys(plain.tools)).not.toContain("onebot_group_poke");
      const fixed = await invokeOneBot(kernel, { mode: "typed", implementation: "llbot" });
      expect(Object.keys(fixed.tools)).toContain("onebot_get_friend_msg_history");
    } finally {
      kernel.peer.handlers.set("get_version_info", () => ({ app_name: "NapCat.Onebot", app_version: "4.0", protocol_version: "v11" }));
    }
  });

  it("OB-10 typed mode adds onebot_<action> tools with params input, outputSchema and validation", async () => {
    const { tools } = await invokeOneBot(kernel, { mode: "typed", categories: ["message", "group"], exclude: ["send_msg"] });
    const names = Object.keys(tools);
    expect(names).toContain("onebot_send_group_msg");
    expect(names).toContain("onebot_send_group_notice");
    expect(names).not.toContain("onebot__send_group_notice");
    expect(names).not.toContain("onebot_send_msg");
    expect(names).not.toContain("onebot_get_group_member_list");
    expect(names.some((name) => name.includes("kick") || name.includes("delete_essence"))).toBe(false);
    const send = tools.onebot_send_group_msg;
    expect(send.outputSchema).toBeDefined();
    const validate = (send.inputSchema as unknown as { validate: (value: unknown) => Promise<{ success: boolean; error?: Error }> }).validate;
    expect((await validate({ group_id: GROUP })).error?.message).toBe("onebot_send_group_msg: invalid params.message: required");
    expect((await validate({ group_id: GROUP, message: "hi" })).success).toBe(true);
    const sent = await call<{ message_id: number }>(tools, "onebot_send_group_msg", { group_id: Number(GROUP), message: [{ type: "text", data: { text: "hello" } }] });
    expect(typeof sent.message_id).toBe("number");
    expect(kernel.peer.calls.at(-1)).toEqual({ action: "send_group_msg", params: { group_id: Number(GROUP), message: [{ type: "text", data: { text: "hello" } }] } });
  });

  it("OB-8 destructive actions stay hidden with a warning unless an allow rule names them or approvals are on", async () => {
    const hidden = await invokeOneBot(kernel, { mode: "typed", maxRisk: "destructive" });
    expect(Object.keys(hidden.tools)).not.toContain("onebot_set_group_ban");
    expect(hidden.logs.filter((log) => log.level === "warn").map((log) => log.message)).toContain('action "set_group_ban" stays hidden: destructive actions need an allow rule or approval approvers');
    const allowed = await invokeOneBot(kernel, { mode: "typed", maxRisk: "destructive", allow: [{ action: "set_group_ban" }] });
    expect(Object.keys(allowed.tools)).toContain("onebot_set_group_ban");
    expect(Object.keys(allowed.tools)).not.toContain("onebot_set_group_kick");
    const approved = await invokeOneBot(kernel, { mode: "typed", maxRisk: "destructive", approval: { approvers: ["onebot:10001"], timeoutSeconds: 60 } });
    expect(Object.keys(approved.tools)).toContain("onebot_set_group_kick");
    const included = await invokeOneBot(kernel, { include: ["set_group_kick"], allow: [{ action: "set_group_kick" }] });
    const listed = await call<{ actions: Array<{ action: string }> }>(included.tools, "onebot_actions", { category: "member" });
    expect(listed.actions.map((item) => item.action)).toContain("set_group_kick");
  });
});
