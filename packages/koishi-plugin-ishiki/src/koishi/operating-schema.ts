import { Schema } from "koishi";

/**
 * `prices` of a model entry (issue 22), per million tokens, in one currency across every entry. The gateway
 * checks the same keys (packages/gateway config-schema.ts); this is the console form of them, for the model
 * entry form to include as its `prices` key.
 */
export const ModelPricesSchema = Schema.object({
  input: Schema.number().min(0),
  output: Schema.number().min(0),
  cacheRead: Schema.number().min(0),
}).i18n({
  "zh-CN": {
    $description: "价格（每百万 token，所有模型用同一种货币）：用于 ishiki.usage 的费用估算和按费用的预算。未声明价格的模型不计费用。",
    input: "输入价格（未命中缓存的输入 token；缓存写入也按此计）。",
    output: "输出价格。",
    cacheRead: "缓存命中的输入价格；不填则按输入价格。",
  },
  "en-US": {
    $description: "Prices per million tokens (one currency across all models): used for ishiki.usage cost estimates and cost budgets. A model without prices is never counted as free.",
    input: "Input price (input tokens not read from cache; cache writes count as input).",
    output: "Output price.",
    cacheRead: "Price of input tokens read from cache; the input price when unset.",
  },
});

/** A profile's `budget` (issue 22): daily limits over all its model calls and what happens when one is reached. */
export const BudgetSchema = Schema.object({
  dailyTokens: Schema.natural().default(0),
  dailyCost: Schema.number().min(0).default(0),
  whenReached: Schema.union(["mentions", "group"]).default("mentions"),
  group: Schema.string(),
}).i18n({
  "zh-CN": {
    $description: "每日预算（UTC 日）：覆盖该 profile 的全部模型调用，包括旁路请求。达到时记录一次日志，并在 ishiki.status 中显示。",
    dailyTokens: "每日 token 上限（输入 + 输出）；0 表示不限。",
    dailyCost: "每日估算费用上限（按模型声明的价格）；0 表示不限。",
    whenReached: "达到预算后：mentions 只在被直接提及（私聊、@机器人、引用机器人）时唤醒；group 改用下方的便宜模型组。",
    group: "whenReached 为 group 时改用的模型组（或模型引用）。",
  },
  "en-US": {
    $description: "Daily budget (UTC day) over every model call of the profile, side requests included. Reaching it is logged once and shown by ishiki.status.",
    dailyTokens: "Daily token limit (input + output); 0 means none.",
    dailyCost: "Daily estimated cost limit (from the models' declared prices); 0 means none.",
    whenReached: "Once reached: mentions wakes only for direct mentions (private chat, @bot, a quote of the bot); group switches to the cheaper group below.",
    group: "The model group (or reference) used while reached, with whenReached: group.",
  },
});
