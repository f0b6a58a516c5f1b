import type { Context, Logger } from "koishi";
import type { AgentRuntime } from "koishi-plugin-ishiki";
import type { ApprovalSettings } from "../settings.js";
import type { ApprovalDesk } from "./approval-desk.js";
import type { ApprovalRequester, PendingApprovalResult } from "./pending-approval.js";

export interface RuntimeApprovalsOptions {
  ctx: Context;
  desk: ApprovalDesk;
  settings: ApprovalSettings;
  profileId: string;
  runtimeId: string;
  /** The account whose bot messages the approvers when they are on its platform. */
  selfId: string;
  runtime: () => AgentRuntime | undefined;
  logger: Logger;
}

/** OB-15 for one runtime: opens requests on the desk and asks every approver in a private message. */
export class RuntimeApprovals implements ApprovalRequester {
  public constructor(private readonly options: RuntimeApprovalsOptions) {}

  public async request(call: { action: string; params: Record<string, unknown>; target: string; execute: () => Promise<unknown> }): Promise<PendingApprovalResult> {
    const { desk, settings, logger, runtimeId } = this.options;
    const approval = desk.open({
      approvers: settings.approvers,
      runtimeId,
      action: call.action,
      expiresAt: Date.now() + settings.timeoutSeconds * 1000,
      execute: call.execute,
      wake: (prompt) => {
        const runtime = this.options.runtime();
        if (runtime) runtime.wake(prompt);
        else logger.warn(`approval outcome not delivered, the runtime is not attached: ${prompt}`);
      },
      log: (message) => logger.info(message),
    });
    const expiresAt = new Date(approval.expiresAt).toISOString();
    logger.info(`approval ${approval.id} requested for destructive ${call.action} on ${call.target}; approvers ${settings.approvers.join(", ")}`);
    const text = [
      `Ishiki approval ${approval.id}`,
      `profile: ${this.options.profileId}`,
      `runtime: ${runtimeId}`,
      `action: ${call.action}`,
      `params: ${JSON.stringify(call.params)}`,
      `expires: ${expiresAt}`,
      `Reply "ishiki.approve ${approval.id}" to run it or "ishiki.deny ${approval.id}" to refuse.`,
    ].join("\n");
    await Promise.all(settings.approvers.map((approver) => this.notify(approver, text)));
    return { ok: false, status: "pending_approval", approvalId: approval.id, expiresAt };
  }

  private async notify(approver: string, text: string): Promise<void> {
    const cut = approver.lastIndexOf(":");
    const platform = approver.slice(0, cut);
    const userId = approver.slice(cut + 1);
    const bots = this.options.ctx.bots.filter((bot) => bot.platform === platform);
    const bot = bots.find((candidate) => candidate.selfId === this.options.selfId) ?? bots[0];
    if (!bot) {
      this.options.logger.warn(`approval: no ${platform} bot to reach approver ${approver}`);
      return;
    }
    try {
      await bot.sendPrivateMessage(userId, text);
    } catch (error) {
      this.options.logger.warn(`approval: could not message approver ${approver}: ${(error as Error).message}`);
    }
  }
}
