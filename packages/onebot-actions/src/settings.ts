import { Logger, Schema } from "koishi";
import { CATEGORIES, IMPLEMENTATIONS } from "./catalog/catalog-entry.js";
import type { ActionCategory, Implementation } from "./catalog/catalog-entry.js";

/** Runs matching destructive calls at once (OB-14); unset lists match any group or user. */
export interface AllowRule {
  action: string;
  groups?: string[];
  users?: string[];
  /** Upper bound of a ban's `duration` in seconds. */
  maxDuration?: number;
}

/** OB-15: who may approve destructive calls no allow rule covers; no approvers means approvals are off. */
export interface ApprovalSettings {
  /** `<platform>:<userId>`, e.g. `onebot:10001`. */
  approvers: string[];
  timeoutSeconds: number;
}

/** OB-18 .. OB-20: temporary URLs for files sent from resource URLs. */
export interface PublishSettings {
  enabled: boolean;
  ttlSeconds: number;
  /** Route prefix on Koishi's server. */
  path: string;
  /** Resource files up to this size are inlined as base64:// when publishing is unavailable. */
  inlineMaxBytes: number;
  /** Public base URL the OneBot implementation can reach; default: the server's selfUrl. */
  baseUrl?: string;
}

export type ExposedRisk = "read" | "write" | "destructive";

/** `extends.onebot-actions.config` of a profile (OB-7); validated once at activation. */
export interface OneBotActionsSettings {
  mode: "generic" | "typed";
  implementation: "auto" | Implementation;
  categories: ActionCategory[];
  include: string[];
  exclude: string[];
  maxRisk: ExposedRisk;
  scope: "domain" | "account";
  allow: AllowRule[];
  approval: ApprovalSettings;
  protectAdmins: boolean;
  maxDestructivePerHour: number;
  timeoutMs: number;
  publish: PublishSettings;
}

const AllowRule: Schema<AllowRule> = Schema.object({
  action: Schema.string().required(),
  groups: Schema.array(Schema.string()),
  users: Schema.array(Schema.string()),
  maxDuration: Schema.natural(),
}).i18n({
  "zh-CN": { action: "动作名，例如 set_group_ban。", groups: "只允许这些群（留空为不限）。", users: "只允许这些用户（留空为不限）。", maxDuration: "禁言时长上限（秒）。" },
  "en-US": { action: "Action name, e.g. set_group_ban.", groups: "Only these groups (unset: any).", users: "Only these users (unset: any).", maxDuration: "Upper bound of a ban's duration in seconds." },
});

const ApprovalSettings: Schema<ApprovalSettings> = Schema.object({
  approvers: Schema.array(Schema.string()).default([]),
  timeoutSeconds: Schema.natural().min(1).default(600),
}).i18n({
  "zh-CN": { approvers: "审批人，格式 <平台>:<用户 ID>，例如 onebot:10001；留空则不启用审批。", timeoutSeconds: "审批请求的有效期（秒）。" },
  "en-US": { approvers: "Approvers as <platform>:<userId>, e.g. onebot:10001; empty disables approvals.", timeoutSeconds: "How long a request waits for a decision, in seconds." },
});

const PublishSettings: Schema<PublishSettings> = Schema.object({
  enabled: Schema.boolean().default(true),
  ttlSeconds: Schema.natural().min(1).default(300),
  path: Schema.string().default("/ishiki/files"),
  inlineMaxBytes: Schema.natural().default(4 * 1024 * 1024),
  baseUrl: Schema.string(),
}).i18n({
  "zh-CN": {
    enabled: "在 Koishi 的 server 上发布临时 URL，供 OneBot 实现下载资源文件。",
    ttlSeconds: "临时 URL 的有效期（秒）。",
    path: "临时 URL 的路由前缀。",
    inlineMaxBytes: "无法发布时，以 base64:// 内联的最大字节数。",
    baseUrl: "OneBot 实现可访问的基础 URL；默认为 server 的 selfUrl。",
  },
  "en-US": {
    enabled: "Publish temporary URLs on Koishi's server so the OneBot implementation can download resource files.",
    ttlSeconds: "Lifetime of a temporary URL in seconds.",
    path: "Route prefix of the temporary URLs.",
    inlineMaxBytes: "Largest file inlined as base64:// when publishing is unavailable.",
    baseUrl: "Base URL the OneBot implementation can reach; default: the server's selfUrl.",
  },
});

export const OneBotActionsSettings: Schema<OneBotActionsSettings> = Schema.object({
  mode: Schema.union(["generic", "typed"]).default("generic"),
  implementation: Schema.union(["auto", ...IMPLEMENTATIONS]).default("auto"),
  categories: Schema.array(Schema.union([...CATEGORIES])).default([...CATEGORIES]),
  include: Schema.array(Schema.string()).default([]),
  exclude: Schema.array(Schema.string()).default([]),
  maxRisk: Schema.union(["read", "write", "destructive"]).default("write"),
  scope: Schema.union(["domain", "account"]).default("domain"),
  allow: Schema.array(AllowRule).default([]),
  approval: ApprovalSettings,
  protectAdmins: Schema.boolean().default(true),
  maxDestructivePerHour: Schema.natural().default(10),
  timeoutMs: Schema.natural().min(1).default(30_000),
  publish: PublishSettings,
}).i18n({
  "zh-CN": {
    $description: "OneBot 动作（ishiki-onebot-actions）：群管理、消息与文件等 OneBot v11 动作",
    mode: "generic：两个工具 onebot_actions 与 onebot_call；typed：每个动作一个工具 onebot_<动作>。",
    implementation: "OneBot 实现；auto 在首次使用时由 get_version_info 的 app_name 判断，未知时按 onebot11。",
    categories: "开放的动作类别。",
    include: "额外开放的动作（仍不含 secret 动作）。",
    exclude: "不开放的动作。",
    maxRisk: "开放的最高风险等级；destructive 动作还需要 allow 规则或审批。",
    scope: "domain：只能作用于本运行时的群、用户和见过的消息；account：整个账号。",
    allow: "允许立即执行的破坏性调用规则。",
    approval: "其余破坏性调用交由审批人以 ishiki.approve / ishiki.deny 决定。",
    protectAdmins: "拒绝踢出、禁言群主和管理员，拒绝撤销管理员。",
    maxDestructivePerHour: "滚动一小时内破坏性动作的执行上限。",
    timeoutMs: "单个动作调用的超时（毫秒）。",
    publish: "以资源 URL 发送文件时的临时 URL 设置。",
  },
  "en-US": {
    $description: "OneBot actions (ishiki-onebot-actions): group management, messages, files and other OneBot v11 actions",
    mode: "generic: two tools onebot_actions and onebot_call; typed: one tool onebot_<action> per action.",
    implementation: "OneBot implementation; auto reads get_version_info.app_name at first use, unknown means onebot11.",
    categories: "Action categories to expose.",
    include: "Actions exposed in addition (never secret ones).",
    exclude: "Actions never exposed.",
    maxRisk: "Highest risk exposed; destructive actions also need an allow rule or approval.",
    scope: "domain: only this runtime's groups, users and seen messages; account: the whole account.",
    allow: "Destructive calls that run at once.",
    approval: "Other destructive calls wait for an approver's ishiki.approve / ishiki.deny.",
    protectAdmins: "Refuse to kick or ban the owner and admins, and to remove admins.",
    maxDestructivePerHour: "Destructive executions allowed in a rolling hour.",
    timeoutMs: "Timeout of one action call in milliseconds.",
    publish: "Temporary URLs for files sent from resource URLs.",
  },
});

/** The plugin's own Koishi config, independent of any profile. */
export interface OneBotActionsPluginConfig {
  logLevel: number;
}

export const OneBotActionsPluginConfig: Schema<OneBotActionsPluginConfig> = Schema.object({
  logLevel: Schema.natural().max(3).default(Logger.INFO),
}).i18n({
  "zh-CN": { logLevel: "日志等级：0 静默，1 错误，2 信息，3 调试。" },
  "en-US": { logLevel: "Log level: 0 silent, 1 errors, 2 info, 3 debug." },
});
