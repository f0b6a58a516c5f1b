import { Schema } from "koishi";
import { BudgetSchema } from "./operating-schema.js";

const engine = (name: string) => Schema.object({ engine: Schema.string().default(name) });

/**
 * One profile as the console edits it (spec 08 KP-7): every default is declared here so the form shows it.
 * Engine sections and extension configs keep their other keys: their own services validate them (06 EN-5, 07 XA-3).
 */
export const ProfileSchema = Schema.object({
  model: Schema.string().required(),
  mode: Schema.union(["channel", "cross"]).default("channel"),
  channels: Schema.dict(Schema.array(Schema.string()).role("table")).required(),
  extends: Schema.dict(Schema.any()).default({}),
  failover: Schema.object({
    attempts: Schema.natural().min(1),
    backoffMs: Schema.natural().default(500),
    failoverOn: Schema.union(["unavailable", "any"]).default("unavailable"),
  }),
  context: engine("standard"),
  wakeup: engine("standard"),
  toolcall: engine("native"),
  codemode: Schema.object({
    enable: Schema.boolean().default(false),
    direct: Schema.array(Schema.string()).default([]),
    directOnly: Schema.array(Schema.string()).default([]),
    timeoutMs: Schema.natural().min(1).default(30_000),
  }),
  toolsearch: Schema.object({
    enable: Schema.boolean().default(false),
    resident: Schema.array(Schema.string()).default([]),
    maxResults: Schema.natural().min(1).max(20).default(5),
  }),
  typing: Schema.object({
    baseDelay: Schema.natural().default(500),
    charPerSecond: Schema.number().default(5),
    minDelay: Schema.natural().default(800),
    maxDelay: Schema.natural().default(4000),
  }),
  textReply: Schema.union(["nudge", "send", "drop"]).default("nudge"),
  resources: Schema.object({
    imageInput: Schema.boolean().default(false),
    maxImageCount: Schema.natural().default(4),
    maxImageBytes: Schema.natural().default(5 * 1024 * 1024),
    maxTotalImageBytes: Schema.natural().default(10 * 1024 * 1024),
    maxImageDimension: Schema.natural().default(8000),
    recentImageCount: Schema.natural().default(4),
    imagePruneBatchSize: Schema.natural().min(1).default(2),
  }),
  budget: BudgetSchema,
}).i18n({
  "zh-CN": {
    model: "模型引用：`provider:model[:level]` 或模型组名。",
    mode: "channel：每个认领的频道一个运行时；cross：整个 profile 一个运行时，跨频道共享事实流。",
    channels: "认领的频道：键为 `平台:机器人账号`（可用 `*` 与 `前缀*`），值为频道模式列表（`*`、`前缀*`、精确 id；`!` 开头表示排除）。",
    extends: "启用的扩展：名称 → `{ enable?, config? }`；`{}`、`null`、`true` 表示启用，`false` 表示停用。",
    failover: "模型故障切换：重试次数、退避基数（毫秒）与切换条件。",
    context: "上下文引擎：`engine` 为变体名，其余键为该变体的配置块。",
    wakeup: "唤醒引擎：决定何时开始一轮对话。",
    toolcall: "工具调用引擎：native 为模型原生工具调用。",
    codemode: "codemode：让模型用一段 TypeScript 程序调用多个工具。",
    toolsearch: "toolsearch：只常驻少数工具，其余通过 search 工具按需发现。",
    typing: "多条消息之间的模拟打字延迟（毫秒；charPerSecond 为每秒字数）。",
    resources: "图片输入与附件限制。",
    textReply: "模型只输出文字、本轮没有调用 send_message 时：nudge（默认）提醒模型一次，只有 send_message 能发到聊天（调用它，或用 finish 保持沉默）；send 把这段文字经 send_message 发出；drop 不发送，只记一行日志。v3 与 narrative 引擎有自己的回复方式，不受影响。",
  },
  "en-US": {
    model: "Model reference: `provider:model[:level]` or a group name.",
    mode: "channel: one runtime per claimed channel; cross: one runtime for the profile, one fact stream across channels.",
    channels: "Claimed channels: key `platform:selfId` (`*` and `prefix*` allowed) → channel patterns (`*`, `prefix*`, exact id; a leading `!` excludes).",
    extends: "Enabled extensions: name → `{ enable?, config? }`; `{}`, `null` and `true` enable, `false` disables.",
    failover: "Model failover: attempts, backoff base (ms) and when to switch.",
    context: "Context engine: `engine` names the variant, other keys are its blocks.",
    wakeup: "Wakeup engine: decides when a turn starts.",
    toolcall: "Tool-call engine: native uses the model's own tool calling.",
    codemode: "Codemode: the model calls several tools from one TypeScript program.",
    toolsearch: "Toolsearch: few resident tools; the model finds the rest with the search tool.",
    typing: "Simulated typing delay between messages (ms; charPerSecond in characters per second).",
    resources: "Image input and attachment limits.",
    textReply: "When the model answers with plain text and no send_message in that turn: nudge (default) adds one step telling it that only send_message reaches the chat (call it, or finish to stay silent); send delivers the text through send_message; drop sends nothing and logs one line. The v3 and narrative engines keep their own reply path.",
  },
});
