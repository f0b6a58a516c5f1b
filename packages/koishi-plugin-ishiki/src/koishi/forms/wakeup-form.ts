import { Schema } from "koishi";
import { blockText, customEngineVariant, engineVariant } from "./engine-variant.js";

// Koishi Schemas of the built-in wakeup variants' blocks (spec 06 EN-26 .. EN-37) for the console form; the
// engines validate their blocks themselves at activation (EN-5) and a test pins both to the same defaults.
// No bound here is stricter than the engine's own, or a valid profile would fall out of the form.

const words = () => Schema.array(Schema.string()).role("table").default([]);
const duration = (fallback: number) => Schema.number().min(0).default(fallback);

const standard = Schema.object({
  direct: Schema.boolean().default(true),
  atSelf: Schema.boolean().default(true),
  quoteSelf: Schema.boolean().default(true),
  keywords: words(),
  debounceMs: duration(1500),
  debounceMaxMs: duration(6000),
  cooldownMs: duration(0),
  maxTurnsPerHour: Schema.natural().default(0),
  muteKeywords: words(),
  muteMinutes: duration(30),
  unmuteKeywords: words(),
  ignoreUsers: words(),
}).i18n(
  blockText(
    { "zh-CN": "standard 的唤醒规则。", "en-US": "Wake rules of standard." },
    {
      direct: "私聊消息唤醒。",
      atSelf: "@机器人 的消息唤醒（@全体成员 不算）。",
      quoteSelf: "引用机器人消息的回复唤醒。",
      keywords: "包含任一关键词（不区分大小写，去掉标记后匹配）的消息唤醒。",
      debounceMs: "防抖：频道安静这么久（毫秒）后才唤醒，多次命中合并为一次；0 关闭。",
      debounceMaxMs: "防抖上限：第一次命中后最多等待多久（毫秒）。",
      cooldownMs: "两轮之间的最短间隔（毫秒）；期间的命中推迟到冷却结束；0 关闭。",
      maxTurnsPerHour: "滚动一小时内最多开启的轮数；0 不限。",
      muteKeywords: "称呼机器人并包含这些词时，该频道静音 muteMinutes 分钟。",
      muteMinutes: "静音时长（分钟）。",
      unmuteKeywords: "静音期间，称呼机器人并包含这些词才唤醒（并解除静音）。",
      ignoreUsers: "这些用户 id 的消息从不唤醒。",
    },
    {
      direct: "Private messages wake.",
      atSelf: "Messages that @ the bot wake (@all does not count).",
      quoteSelf: "Replies quoting the bot wake.",
      keywords: "Messages containing a keyword (case-insensitive, markup stripped) wake.",
      debounceMs: "Debounce: wake once the channel was quiet this long (ms); hits merge into one wake; 0 disables.",
      debounceMaxMs: "Debounce cap: the longest wait after the first hit (ms).",
      cooldownMs: "Minimum time between turns (ms); a hit inside it is postponed to its end; 0 disables.",
      maxTurnsPerHour: "Turns this engine opens in a rolling hour at most; 0 is unlimited.",
      muteKeywords: "A message addressing the bot with one of these mutes its channel for muteMinutes.",
      muteMinutes: "Mute duration in minutes.",
      unmuteKeywords: "While muted, only a message addressing the bot with one of these wakes (and unmutes).",
      ignoreUsers: "User ids that never wake.",
    },
  ),
);

const score = (fallback: number, min?: number) => (min === undefined ? Schema.number() : Schema.number().min(min)).default(fallback);

const v3 = Schema.object({
  base: score(12),
  atMention: score(100),
  isQuote: score(15),
  isDirectMessage: score(40),
  keywords: words(),
  keywordMultiplier: score(1.2),
  defaultMultiplier: score(1),
  maxWillingness: score(100, 1),
  decayHalfLifeSeconds: score(600, 1),
  probabilityThreshold: score(55, 0),
  probabilityAmplifier: score(0.04, 0),
  replyCost: score(35, 0),
}).i18n(
  blockText(
    { "zh-CN": "v3 意愿值设置。", "en-US": "Willingness settings of v3." },
    {
      base: "每条消息的基础意愿增量。",
      atMention: "@机器人 时额外增加的意愿。",
      isQuote: "引用机器人时额外增加的意愿。",
      isDirectMessage: "私聊时额外增加的意愿。",
      keywords: "出现时使用 keywordMultiplier 的关键词。",
      keywordMultiplier: "包含关键词时的倍率。",
      defaultMultiplier: "不含关键词时的倍率。",
      maxWillingness: "意愿上限（≥ 1）。",
      decayHalfLifeSeconds: "意愿衰减的半衰期（秒，≥ 1）。",
      probabilityThreshold: "超过此意愿才可能回复。",
      probabilityAmplifier: "回复概率 = (意愿 − 阈值) × 此系数，限制在 [0, 1]。",
      replyCost: "每轮回复后各频道扣除的意愿。",
    },
    {
      base: "Base willingness gain per message.",
      atMention: "Extra gain when the bot is @-mentioned.",
      isQuote: "Extra gain when the bot is quoted.",
      isDirectMessage: "Extra gain in a private chat.",
      keywords: "Keywords that apply keywordMultiplier.",
      keywordMultiplier: "Multiplier when a keyword occurs.",
      defaultMultiplier: "Multiplier otherwise.",
      maxWillingness: "Willingness ceiling (≥ 1).",
      decayHalfLifeSeconds: "Half-life of the decay in seconds (≥ 1).",
      probabilityThreshold: "Willingness above which a reply becomes possible.",
      probabilityAmplifier: "Reply probability = (willingness − threshold) × this, clamped to [0, 1].",
      replyCost: "Willingness every channel seen pays after a turn.",
    },
  ),
);

const rules = Schema.object({
  direct: Schema.boolean().default(true),
  atSelf: Schema.boolean().default(true),
  quoteSelf: Schema.boolean().default(true),
  keywords: words(),
})
  .default({ direct: true, atSelf: true, quoteSelf: true, keywords: [] })
  .i18n(
    blockText(
      { "zh-CN": "直接唤醒、不经判断的规则。", "en-US": "Rules that wake at once, without a judgement." },
      { direct: "私聊消息。", atSelf: "@机器人 的消息。", quoteSelf: "引用机器人的回复。", keywords: "包含这些关键词的消息。" },
      { direct: "Private messages.", atSelf: "Messages that @ the bot.", quoteSelf: "Replies quoting the bot.", keywords: "Messages containing one of these keywords." },
    ),
  );

const judge = Schema.object({
  model: Schema.string(),
  threshold: Schema.number().min(0).max(1).default(0.5),
  cooldownMs: duration(30_000),
  timeoutMs: Schema.number().min(100).default(8000),
  historyMessages: Schema.natural().min(1).max(50).default(8),
  instruction: Schema.string().role("textarea").default(""),
  interests: words(),
  rules,
}).i18n(
  blockText(
    { "zh-CN": "judge（LLM 判断）设置。", "en-US": "Settings of judge (an LLM judge)." },
    {
      model: "判断用的模型引用或模型组；留空使用 profile 的模型。",
      threshold: "唤醒阈值 [0, 1]。",
      cooldownMs: "机器人在频道发言后这么久（毫秒）内不再判断。",
      timeoutMs: "单次判断的超时（毫秒，≥ 100）。",
      historyMessages: "判断时附带的最近消息数（1–50）。",
      instruction: "给判断模型的主人指引。",
      interests: "机器人感兴趣的话题。",
    },
    {
      model: "Model reference or group of the judge; empty: the profile's model.",
      threshold: "Wake threshold in [0, 1].",
      cooldownMs: "No judgement for this long (ms) after the bot spoke in the channel.",
      timeoutMs: "Timeout of one judgement (ms, ≥ 100).",
      historyMessages: "Latest messages given to the judge (1–50).",
      instruction: "Owner guidance for the judge.",
      interests: "Topics the bot cares about.",
    },
  ),
);

/** `wakeup` of a profile: a union on the engine name (EN-3), `standard` when unset. */
export const WakeupEngineForm = Schema.union([
  engineVariant("standard", { "zh-CN": "standard（默认：私聊、@、引用、关键词）", "en-US": "standard (default: private chat, @, quote, keywords)" }, standard, true),
  engineVariant("v3", { "zh-CN": "v3（按意愿值概率回复）", "en-US": "v3 (willingness-based probability)" }, v3),
  engineVariant("judge", { "zh-CN": "judge（由模型判断是否回复）", "en-US": "judge (a model decides whether to reply)" }, judge),
  customEngineVariant({ "zh-CN": "唤醒", "en-US": "wakeup" }),
]).default({ engine: "standard" });
