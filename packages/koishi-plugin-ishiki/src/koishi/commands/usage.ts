import type { Context, Session } from "koishi";
import { pricesOf, profileStreams, readUsage, summariseUsage, utcDayStart, type UsageItem, type UsageLine } from "../../usage/index.js";
import type { CommandKernel, CommandSettings } from "./command-kernel.js";
import { refusal } from "./authority.js";
import { defineTexts, formatCost, formatCount, textOf } from "./format.js";

const NAME = "ishiki.usage";
const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

const zhCN = {
  commands: {
    [NAME]: {
      description: "查看模型用量与估算费用（按 profile、频道、模型与用途），含压缩、判断等旁路请求",
      options: { profile: "只看这个 profile", channel: "只看这个频道（频道 id，或 平台:账号/频道 id）", days: "最近几天（含今天，UTC 日），默认 1" },
      messages: {
        header: "用量：最近 {0} 天（自 {1} UTC 起）",
        "no-profile": "没有 id 为 {0} 的 profile。",
        empty: "这段时间没有记录到模型调用。",
        total: "合计：{0}",
        line: "输入 {0}（缓存 {1}）/ 输出 {2} tokens，{3} 次调用，费用 {4}",
        item: "  {0}：{1}",
        "by-profile": "按 profile：",
        "by-channel": "按频道：",
        "by-model": "按模型：",
        "by-purpose": "按用途（turn 为对话轮次，其余为旁路请求）：",
        unpriced: "未定价",
        "at-least": "至少 {0}",
      },
    },
  },
};

const enUS = {
  commands: {
    [NAME]: {
      description: "Model usage and estimated cost per profile, channel, model and purpose, side requests included",
      options: { profile: "only this profile", channel: "only this channel (a channel id, or platform:selfId/channelId)", days: "the last n days including today (UTC days), default 1" },
      messages: {
        header: "usage: the last {0} day(s) (since {1} UTC)",
        "no-profile": "No profile {0}.",
        empty: "No model calls were recorded in that time.",
        total: "total: {0}",
        line: "in {0} (cache {1}) / out {2} tokens, {3} call(s), cost {4}",
        item: "  {0}: {1}",
        "by-profile": "by profile:",
        "by-channel": "by channel:",
        "by-model": "by model:",
        "by-purpose": "by purpose (turn = conversation turns, others are side requests):",
        unpriced: "unpriced",
        "at-least": "at least {0}",
      },
    },
  },
};

interface UsageOptions {
  profile?: string;
  channel?: string;
  days?: number;
}

/** A channel filter matches the channel id alone, `platform:selfId/channelId`, or `main` for cross mode. */
function inChannel(item: UsageItem, channel: string): boolean {
  return item.channel === channel || item.channel.endsWith(`/${channel}`);
}

/**
 * `ishiki.usage [-p profile] [-c channel] [--days n]` (issue 22): the usage recorded in the profiles' fact
 * streams (turn steps and `ishiki.usage` side requests), summed and priced by the model entries' `prices`.
 */
export function registerUsageCommand(ctx: Context, kernel: CommandKernel, settings: CommandSettings): () => void {
  const texts = defineTexts(ctx, { "zh-CN": zhCN, "en-US": enUS });
  const command = ctx
    .command(NAME, { authority: settings.authority })
    .option("profile", "-p <profile:string>")
    .option("channel", "-c <channel:string>")
    .option("days", "--days <days:posint>")
    .action(({ session, options }) => refusal(session!, settings) ?? usage(session!, kernel, options as UsageOptions));
  return () => {
    command.dispose();
    texts();
  };
}

async function usage(session: Session, kernel: CommandKernel, options: UsageOptions): Promise<string> {
  const text = textOf(session, NAME);
  const days = Math.min(MAX_DAYS, options.days ?? 1);
  const since = utcDayStart(Date.now()) - (days - 1) * DAY_MS;
  const profiles = kernel.profiles().filter((activation) => options.profile === undefined || activation.profile.id === options.profile);
  if (options.profile !== undefined && profiles.length === 0) return text("no-profile", [options.profile]);
  const items: UsageItem[] = [];
  for (const activation of profiles) {
    for (const file of await profileStreams(activation.root)) items.push(...(await readUsage(file, activation.profile.id, since)));
  }
  const selected = options.channel === undefined ? items : items.filter((item) => inChannel(item, options.channel!));
  const header = text("header", [days, new Date(since).toISOString().slice(0, 16).replace("T", " ")]);
  if (selected.length === 0) return [header, text("empty")].join("\n");
  const report = summariseUsage(selected, (model) => pricesOf(kernel.gateway, model));
  const describe = (line: UsageLine) => {
    const cost = line.cost === undefined ? text("unpriced") : line.unpriced ? text("at-least", [formatCost(line.cost)]) : formatCost(line.cost);
    return text("line", [formatCount(line.counts.input), formatCount(line.counts.cacheRead), formatCount(line.counts.output), line.calls, cost]);
  };
  const section = (title: string, lines: UsageLine[]) => [text(title), ...lines.map((line) => text("item", [line.key, describe(line)]))];
  return [
    header,
    text("total", [describe(report.total)]),
    ...section("by-profile", report.byProfile),
    ...section("by-channel", report.byChannel),
    ...section("by-model", report.byModel),
    ...section("by-purpose", report.byPurpose),
  ].join("\n");
}
