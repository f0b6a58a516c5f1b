import { Schema } from "koishi";
import { blockText, customEngineVariant, engineVariant } from "./engine-variant.js";

// Koishi Schemas of the built-in context variants' blocks (spec 06 EN-12, EN-18, EN-21) for the console form.
// The engines validate their blocks themselves at activation (EN-5); a test pins both to the same defaults.

const standard = Schema.object({
  maxTokens: Schema.number().default(32_000),
  refillRatio: Schema.number().min(0).max(1).default(0.8),
}).i18n(
  blockText(
    { "zh-CN": "standard 的设置。", "en-US": "Settings of standard." },
    {
      maxTokens: "上下文的 token 预算；超出时按轮次裁剪并在轮次结束后压缩为摘要。≤ 0 关闭预算与压缩。",
      refillRatio: "裁剪后保留到预算上限的比例，(0, 1]。",
    },
    {
      maxTokens: "Token budget of the context; over it old turns are cut and compacted into a summary after the turn. ≤ 0 turns budget and compaction off.",
      refillRatio: "How full a cut leaves the window, as a share of the ceiling, in (0, 1].",
    },
  ),
);

const v3 = Schema.object({
  maxMessages: Schema.natural().min(1).default(50),
  keepFullTurnCount: Schema.natural().default(2),
  memoryBlocks: Schema.boolean().default(true),
}).i18n(
  blockText(
    { "zh-CN": "v3 的设置。", "en-US": "Settings of v3." },
    {
      maxMessages: "保留的最近消息条数。",
      keepFullTurnCount: "保留完整工具调用记录的最近轮数；0 关闭裁剪。",
      memoryBlocks: "把 profile 的 memory/*.md|*.txt 作为记忆块放入提示词。",
    },
    {
      maxMessages: "How many of the latest message entries are kept.",
      keepFullTurnCount: "How many of the latest turns keep their tool calls; 0 disables the trim.",
      memoryBlocks: "Put the profile's memory/*.md|*.txt into the instructions as memory blocks.",
    },
  ),
);

const narrative = Schema.object({
  maxMessages: Schema.natural().min(1).default(60),
}).i18n(blockText({ "zh-CN": "narrative 的设置。", "en-US": "Settings of narrative." }, { maxMessages: "故事中保留的最近消息条数。" }, { maxMessages: "How many of the latest messages the story keeps." }));

/** `context` of a profile: a union on the engine name (EN-3), `standard` when unset. */
export const ContextEngineForm = Schema.union([
  engineVariant("standard", { "zh-CN": "standard（默认：按 token 预算裁剪并压缩）", "en-US": "standard (default: token budget and compaction)" }, standard, true),
  engineVariant("v3", { "zh-CN": "v3（消息窗口、世界状态、记忆块）", "en-US": "v3 (message window, world state, memory blocks)" }, v3),
  engineVariant("narrative", { "zh-CN": "narrative（写成故事，配合 narrative 工具调用）", "en-US": "narrative (a story, for the narrative toolcall engine)" }, narrative),
  customEngineVariant({ "zh-CN": "上下文", "en-US": "context" }),
]).default({ engine: "standard" });
