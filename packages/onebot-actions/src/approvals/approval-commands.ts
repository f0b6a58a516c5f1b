import type { Context } from "koishi";
import type { ApprovalDesk } from "./approval-desk.js";

/** `ishiki.approve <id>` and `ishiki.deny <id>` (OB-15); only the request's approvers may decide. */
export function registerApprovalCommands(ctx: Context, desk: ApprovalDesk): void {
  ctx.i18n.define("zh-CN", {
    commands: {
      "ishiki.approve": { description: "批准并执行一个等待审批的 OneBot 破坏性动作" },
      "ishiki.deny": { description: "拒绝一个等待审批的 OneBot 破坏性动作" },
    },
  });
  ctx.i18n.define("en-US", {
    commands: {
      "ishiki.approve": { description: "Approve and run a destructive OneBot action waiting for approval" },
      "ishiki.deny": { description: "Refuse a destructive OneBot action waiting for approval" },
    },
  });
  const approver = (session: { platform: string; userId?: string } | undefined) => `${session?.platform}:${session?.userId}`;
  ctx.command("ishiki.approve <id:string>").action(({ session }, id) => desk.decide(id, approver(session), true));
  ctx.command("ishiki.deny <id:string>").action(({ session }, id) => desk.decide(id, approver(session), false));
}
