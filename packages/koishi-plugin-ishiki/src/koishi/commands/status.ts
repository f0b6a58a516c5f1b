import type { Context, Session } from "koishi";
import type { BudgetStatus } from "../../usage/index.js";
import type { CommandKernel, CommandSettings } from "./command-kernel.js";
import { refusal } from "./authority.js";
import { defineTexts, formatCost, formatCount, formatUtcTime, textOf } from "./format.js";

const NAME = "ishiki.status";

const zhCN = {
  commands: {
    [NAME]: {
      description: "查看 Ishiki 状态：各 profile 与其运行时、模型组与熔断器、今日预算",
      messages: {
        "no-profiles": "没有已加载的 profile。",
        profile: "profile {0}：{1}，本进程中运行时 {2} 个",
        runtime: "  · {0}",
        active: "运行中",
        waiting: "等待所需服务",
        failed: "激活失败（见日志）",
        budget: "  预算：今日 {0}{1} tokens，估算费用 {2}{3}（UTC 日）",
        "budget-reached": "  已于 {0} 达到预算：{1}",
        "when-mentions": "只在被直接提及（私聊、@机器人、引用机器人）时唤醒",
        "when-group": "改用模型组 {0}",
        groups: "模型组：",
        group: "  {0}（{1}）：{2}",
        "no-groups": "模型组：无",
        closed: "正常",
        open: "熔断",
        "half-open": "半开",
      },
    },
  },
};

const enUS = {
  commands: {
    [NAME]: {
      description: "Ishiki status: profiles and their runtimes, model groups and breakers, today's budgets",
      messages: {
        "no-profiles": "No profile is loaded.",
        profile: "profile {0}: {1}, {2} runtime(s) in this process",
        runtime: "  · {0}",
        active: "active",
        waiting: "waiting for required services",
        failed: "activation failed (see the log)",
        budget: "  budget: {0}{1} tokens today, estimated cost {2}{3} (UTC day)",
        "budget-reached": "  budget reached at {0}: {1}",
        "when-mentions": "waking only for direct mentions (private chat, @bot, a quote of the bot)",
        "when-group": "running on group {0}",
        groups: "model groups:",
        group: "  {0} ({1}): {2}",
        "no-groups": "model groups: none",
        closed: "closed",
        open: "open",
        "half-open": "half-open",
      },
    },
  },
};

function budgetLines(text: ReturnType<typeof textOf>, status: BudgetStatus): string[] {
  const { settings } = status;
  const tokenLimit = settings.dailyTokens > 0 ? ` / ${formatCount(settings.dailyTokens)}` : "";
  const costLimit = settings.dailyCost > 0 ? ` / ${formatCost(settings.dailyCost)}` : "";
  const lines = [text("budget", [formatCount(status.tokens), tokenLimit, formatCost(status.cost), costLimit])];
  if (status.reachedAt !== undefined) {
    const then = settings.whenReached === "group" ? text("when-group", [settings.group]) : text("when-mentions");
    lines.push(text("budget-reached", [formatUtcTime(status.reachedAt), then]));
  }
  return lines;
}

/** `ishiki.status` (issue 22): what is running in this process and in what state. */
export function registerStatusCommand(ctx: Context, kernel: CommandKernel, settings: CommandSettings): () => void {
  const texts = defineTexts(ctx, { "zh-CN": zhCN, "en-US": enUS });
  const command = ctx.command(NAME, { authority: settings.authority }).action(({ session }) => refusal(session!, settings) ?? status(session!, kernel));
  return () => {
    command.dispose();
    texts();
  };
}

function status(session: Session, kernel: CommandKernel): string {
  const text = textOf(session, NAME);
  const lines: string[] = [];
  const profiles = kernel.profiles();
  if (profiles.length === 0) lines.push(text("no-profiles"));
  for (const activation of profiles) {
    const runtimes = activation.runtimeIds();
    lines.push(text("profile", [activation.profile.id, text(activation.status), runtimes.length]));
    for (const id of runtimes) lines.push(text("runtime", [id]));
    if (activation.budget !== undefined) lines.push(...budgetLines(text, activation.budget.status()));
  }
  const groups = kernel.gateway.groups();
  if (groups.length === 0) lines.push(text("no-groups"));
  else lines.push(text("groups"));
  for (const group of groups) {
    const breakers = Object.entries(group.status()).map(([ref, breaker]) => `${ref} ${text(breaker.state)}${breaker.failures > 0 ? ` ×${breaker.failures}` : ""}`);
    lines.push(text("group", [group.name, group.strategy, breakers.join(", ")]));
  }
  return lines.join("\n");
}
