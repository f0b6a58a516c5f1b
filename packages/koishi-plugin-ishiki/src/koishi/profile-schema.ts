import { Schema } from "koishi";
import { ContextEngineForm } from "./forms/context-form.js";
import { ToolcallEngineForm } from "./forms/toolcall-form.js";
import { WakeupEngineForm } from "./forms/wakeup-form.js";
import { EXTENDS_FORM } from "../extension/index.js";
import { BudgetSchema } from "./operating-schema.js";

const names = () => Schema.array(Schema.string()).role("table").default([]);

const Failover = Schema.object({
  attempts: Schema.natural().min(1),
  backoffMs: Schema.natural().default(500),
  failoverOn: Schema.union(["unavailable", "any"]).default("unavailable"),
}).i18n({
  "zh-CN": {
    attempts: "总尝试次数（≥ 1）；不填则把候选模型各试一轮。只有一个引用时，大于 1 表示重试它。",
    backoffMs: "重试前的退避基数（毫秒），每次翻倍，至多 8 秒。",
    failoverOn: "unavailable：只在不可用（网络错误、5xx、401、403、404、408、409、429）时切换；any：其他 4xx 也切换。",
  },
  "en-US": {
    attempts: "Total attempts (≥ 1); unset tries each candidate once. With one reference, more than 1 retries it.",
    backoffMs: "Backoff base before a retry (ms), doubling each time, at most 8 s.",
    failoverOn: "unavailable: switch only on availability errors (network, 5xx, 401, 403, 404, 408, 409, 429); any: on other 4xx too.",
  },
});

const Codemode = Schema.object({
  enable: Schema.boolean().default(false),
  direct: names(),
  directOnly: names(),
  timeoutMs: Schema.natural().min(1).default(30_000),
  memoryLimitBytes: Schema.natural().min(8 * 1024 * 1024).default(256 * 1024 * 1024),
  maxToolInputBytes: Schema.natural().min(1).default(32 * 1024 * 1024),
  maxToolOutputBytes: Schema.natural().min(1).default(32 * 1024 * 1024),
  maxResultBytes: Schema.natural().min(1).default(32 * 1024 * 1024),
  maxStackBytes: Schema.natural().min(64 * 1024).default(1024 * 1024),
  maxConsoleBytes: Schema.natural().min(1).default(64 * 1024),
  maxToolCalls: Schema.natural().min(1).default(1000),
}).i18n({
  "zh-CN": {
    enable: "启用 codemode 工具。",
    direct: "模型与程序都能直接调用的工具（send_message、read 之外）。",
    directOnly: "只有模型能调用、程序不能调用的工具。",
    timeoutMs: "单个程序的时间上限（毫秒）。",
    memoryLimitBytes: "QuickJS 堆上限（字节，≥ 8 MiB）。",
    maxToolInputBytes: "单次工具调用输入的上限（字节）。",
    maxToolOutputBytes: "单次工具调用输出的上限（字节）。",
    maxResultBytes: "程序返回值的上限（字节）。",
    maxStackBytes: "栈上限（字节，≥ 64 KiB）。",
    maxConsoleBytes: "console 输出的上限（字节）。",
    maxToolCalls: "单个程序最多的工具调用次数。",
  },
  "en-US": {
    enable: "Enable the codemode tool.",
    direct: "Tools both the model and programs call (besides send_message and read).",
    directOnly: "Tools only the model calls, never programs.",
    timeoutMs: "Time limit of one program (ms).",
    memoryLimitBytes: "QuickJS heap limit (bytes, ≥ 8 MiB).",
    maxToolInputBytes: "Limit of one tool call's input (bytes).",
    maxToolOutputBytes: "Limit of one tool call's output (bytes).",
    maxResultBytes: "Limit of a program's return value (bytes).",
    maxStackBytes: "Stack limit (bytes, ≥ 64 KiB).",
    maxConsoleBytes: "Limit of console output (bytes).",
    maxToolCalls: "Tool calls one program may make.",
  },
});

const Toolsearch = Schema.object({
  enable: Schema.boolean().default(false),
  resident: names(),
  maxResults: Schema.natural().min(1).max(20).default(5),
}).i18n({
  "zh-CN": { enable: "启用 search 工具。", resident: "除内核工具外始终常驻的工具。", maxResults: "search 每次最多返回的工具数（1–20）。" },
  "en-US": { enable: "Enable the search tool.", resident: "Tools kept resident besides the kernel's.", maxResults: "Tools one search returns at most (1–20)." },
});

const Typing = Schema.object({
  baseDelay: Schema.natural().default(500),
  charPerSecond: Schema.number().default(5),
  minDelay: Schema.natural().default(800),
  maxDelay: Schema.natural().default(4000),
}).i18n({
  "zh-CN": { baseDelay: "基础延迟（毫秒）。", charPerSecond: "每秒打字数；≤ 0 时只用 minDelay。", minDelay: "最短延迟（毫秒）。", maxDelay: "最长延迟（毫秒）。" },
  "en-US": { baseDelay: "Base delay (ms).", charPerSecond: "Characters typed per second; ≤ 0 uses minDelay only.", minDelay: "Shortest delay (ms).", maxDelay: "Longest delay (ms)." },
});

const Resources = Schema.object({
  imageInput: Schema.boolean().default(false),
  maxImageCount: Schema.natural().default(4),
  maxImageBytes: Schema.natural().default(5 * 1024 * 1024),
  maxTotalImageBytes: Schema.natural().default(10 * 1024 * 1024),
  maxImageDimension: Schema.natural().default(8000),
  recentImageCount: Schema.natural().default(4),
  imagePruneBatchSize: Schema.natural().min(1).default(2),
}).i18n({
  "zh-CN": {
    imageInput: "把图片直接放进模型请求；要求每个候选模型都声明 image 输入。",
    maxImageCount: "一次请求中最多的图片数。",
    maxImageBytes: "单张图片的字节上限。",
    maxTotalImageBytes: "一次请求中图片的总字节上限。",
    maxImageDimension: "图片边长上限（像素）。",
    recentImageCount: "保留的最近查看图片数，超出后释放最早的。",
    imagePruneBatchSize: "每次释放的图片数（≥ 1）。",
  },
  "en-US": {
    imageInput: "Put images into model requests; every candidate model must declare image input.",
    maxImageCount: "Images in one request at most.",
    maxImageBytes: "Byte limit of one image.",
    maxTotalImageBytes: "Byte limit of all images in one request.",
    maxImageDimension: "Longest image side (pixels).",
    recentImageCount: "Recently viewed images kept before the oldest are released.",
    imagePruneBatchSize: "Images released at a time (≥ 1).",
  },
});

/**
 * One profile as the console edits it (spec 08 KP-7): every default is declared here so the form shows it.
 * Engine sections are unions on the engine name (06 EN-3); `extends` is the form the loaded extensions register
 * (07 XA-3), so it takes any value here and each extension validates its config at activation. Strings carry no
 * pattern: the console matches a profile against this Schema on every keystroke, and a half-typed value that
 * fit no variant would hide the profile's form; the resolver names what it cannot use by its path (KP-8).
 */
export const ProfileSchema = Schema.object({
  model: Schema.string().required(),
  mode: Schema.union(["channel", "cross"]).default("channel"),
  channels: Schema.dict(Schema.array(Schema.string()).role("table")).required(),
  extends: Schema.dynamic(EXTENDS_FORM).default({}),
  failover: Failover,
  context: ContextEngineForm,
  wakeup: WakeupEngineForm,
  toolcall: ToolcallEngineForm,
  codemode: Codemode,
  toolsearch: Toolsearch,
  typing: Typing,
  textReply: Schema.union(["nudge", "send", "drop"]).default("nudge"),
  resources: Resources,
  budget: BudgetSchema,
}).i18n({
  "zh-CN": {
    model: "模型引用：`提供方:模型[:级别]` 或模型组名。",
    mode: "channel：每个认领的频道一个运行时；cross：整个 profile 一个运行时，跨频道共享事实流。",
    channels: "认领的频道：键为 `平台:机器人账号`（可用 `*` 与 `前缀*`），值为频道模式列表（`*`、`前缀*`、精确 id；`!` 开头表示排除）。",
    extends: "启用的扩展：每个已加载的扩展一节；写入即启用，enable: false 或 false 停用。",
    failover: "模型故障切换：重试次数、退避基数（毫秒）与切换条件。",
    context: "上下文引擎：决定模型看到的历史。",
    wakeup: "唤醒引擎：决定何时开始一轮对话（关键词在这里设置）。",
    toolcall: "工具调用引擎：工具调用如何在模型与运行时之间传递。",
    codemode: "codemode：让模型用一段 TypeScript 程序调用多个工具。",
    toolsearch: "toolsearch：只常驻少数工具，其余通过 search 工具按需发现。",
    typing: "多条消息之间的模拟打字延迟。",
    resources: "图片输入与附件限制。",
    textReply: "模型只输出文字、本轮没有调用 send_message 时：nudge（默认）提醒模型一次，只有 send_message 能发到聊天（调用它，或用 finish 保持沉默）；send 把这段文字经 send_message 发出；drop 不发送，只记一行日志。v3 与 narrative 引擎有自己的回复方式，不受影响。",
  },
  "en-US": {
    model: "Model reference: `provider:model[:level]` or a group name.",
    mode: "channel: one runtime per claimed channel; cross: one runtime for the profile, one fact stream across channels.",
    channels: "Claimed channels: key `platform:selfId` (`*` and `prefix*` allowed) → channel patterns (`*`, `prefix*`, exact id; a leading `!` excludes).",
    extends: "Enabled extensions, one section per loaded extension: listing one enables it, enable: false or false disables it.",
    failover: "Model failover: attempts, backoff base (ms) and when to switch.",
    context: "Context engine: what history the model sees.",
    wakeup: "Wakeup engine: decides when a turn starts (keywords are set here).",
    toolcall: "Tool-call engine: how tool calls travel between the model and the runtime.",
    codemode: "Codemode: the model calls several tools from one TypeScript program.",
    toolsearch: "Toolsearch: few resident tools; the model finds the rest with the search tool.",
    typing: "Simulated typing delay between messages.",
    resources: "Image input and attachment limits.",
    textReply: "When the model answers with plain text and no send_message in that turn: nudge (default) adds one step telling it that only send_message reaches the chat (call it, or finish to stay silent); send delivers the text through send_message; drop sends nothing and logs one line. The v3 and narrative engines keep their own reply path.",
  },
});
