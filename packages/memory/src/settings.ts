import { Logger, Schema } from "koishi";

/** The optional consolidation pass: off unless the owner gives it a token budget. */
export interface ConsolidationSettings {
  /** Tokens (input + output) the pass may spend per profile and UTC day; 0 turns it off. */
  tokenBudget: number;
  /** A subject is consolidated once it holds at least this many memories. */
  threshold: number;
  /** Model reference or group; empty: the profile's own model. */
  model: string;
}

/** `extends.memory.config` of a profile; validated once at activation. */
export interface MemorySettings {
  /** Character budget of the memory section in the instructions, header included. */
  instructionChars: number;
  /** How many of the latest speakers count as "active" for the instructions. */
  recentPeople: number;
  /** A speaker stays active this many minutes after their last message. */
  recentMinutes: number;
  /** Longest memory text the model may save, in characters. */
  maxTextChars: number;
  /** Results `memory_search` returns when the model asks for no limit. */
  searchLimit: number;
  /** Embedding model reference for hybrid ranking (BM25 fused with cosine similarity); empty: BM25 only. */
  embeddingModel: string;
  consolidation: ConsolidationSettings;
}

export const MemorySettings: Schema<MemorySettings> = Schema.object({
  instructionChars: Schema.natural().min(0).default(1200),
  recentPeople: Schema.natural().default(5),
  recentMinutes: Schema.natural().min(1).default(60),
  maxTextChars: Schema.natural().min(1).max(4000).default(500),
  searchLimit: Schema.natural().min(1).max(50).default(5),
  embeddingModel: Schema.string().default(""),
  consolidation: Schema.object({
    tokenBudget: Schema.natural().default(0),
    threshold: Schema.natural().min(2).default(20),
    model: Schema.string().default(""),
  }),
}).i18n({
  "zh-CN": {
    $description: "长期记忆（ishiki-memory）：按人和频道保存、检索与整理记忆",
    instructionChars: "提示词中记忆段落的字符预算（含标题），超出部分不进入提示词，可用 memory_search 查到。",
    recentPeople: "最近发言的多少人算作“活跃”，其个人记忆进入提示词。",
    recentMinutes: "发言后多少分钟内仍算活跃。",
    maxTextChars: "单条记忆的最大字符数。",
    searchLimit: "memory_search 未指定 limit 时返回的条数。",
    embeddingModel: "用于混合排序的嵌入模型（网关中的模型引用）；留空只用 BM25。",
    consolidation: {
      $description: "可选的整理（合并重复、概括某人），只在下面的 token 预算内运行，用量记入 ishiki_memory_usage 表。",
      tokenBudget: "每个 profile 每天（UTC）可用于整理的 token 数（输入 + 输出）；0 表示关闭。",
      threshold: "某个对象的记忆达到多少条时整理。",
      model: "整理用的模型引用或分组；留空使用 profile 自己的模型。",
    },
  },
  "en-US": {
    $description: "Long-term memory (ishiki-memory): memories saved, searched and consolidated per person and channel",
    instructionChars: "Character budget of the memory section in the instructions, header included; what does not fit stays reachable through memory_search.",
    recentPeople: "How many of the latest speakers count as active; their person memories enter the instructions.",
    recentMinutes: "Minutes a speaker stays active after their last message.",
    maxTextChars: "Longest memory text, in characters.",
    searchLimit: "Results memory_search returns when no limit is given.",
    embeddingModel: "Embedding model reference (of the gateway) for hybrid ranking; empty: BM25 only.",
    consolidation: {
      $description: "Optional consolidation (merge duplicates, summarise a person), run only within the token budget below; its usage is recorded in the ishiki_memory_usage table.",
      tokenBudget: "Tokens (input + output) consolidation may spend per profile and UTC day; 0 turns it off.",
      threshold: "Consolidate a subject once it holds this many memories.",
      model: "Model reference or group for consolidation; empty: the profile's own model.",
    },
  },
});

/** The plugin's own Koishi config, independent of any profile. */
export interface MemoryPluginConfig {
  logLevel: number;
  /** Koishi authority from which `ishiki.memory` shows and erases every memory, not only the caller's own. */
  adminAuthority: number;
}

export const MemoryPluginConfig: Schema<MemoryPluginConfig> = Schema.object({
  logLevel: Schema.natural().max(3).default(Logger.INFO),
  adminAuthority: Schema.natural().min(1).max(5).default(4),
}).i18n({
  "zh-CN": {
    logLevel: "日志等级：0 静默，1 错误，2 信息，3 调试。",
    adminAuthority: "达到此权限等级的用户可用 ishiki.memory 查看、删除与导出所有记忆；其他用户只能管理自己的。",
  },
  "en-US": {
    logLevel: "Log level: 0 silent, 1 errors, 2 info, 3 debug.",
    adminAuthority: "Koishi authority from which ishiki.memory shows, erases and exports every memory; other users manage only their own.",
  },
});
