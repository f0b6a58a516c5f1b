import { Logger, Schema } from "koishi";

/** `extends.workspace.config` of a profile (WS-1); validated once at activation. */
export interface WorkspaceSettings {
  /** Default working directory of the shell and base of relative tool paths. */
  cwd: string;
  timeoutMs: number;
  /** Safety cap per output stream of one command; not the model's page budget. */
  maxExecutionOutputBytes: number;
  /** Bytes the workspace and the writable mounts may hold together; a write beyond fails `ENOSPC`. */
  quotaBytes: number;
  network: boolean;
  javascript: boolean;
  python: boolean;
  /** Skill directories, relative to the profile directory. */
  skills: string[];
  /** `source:target[:ro]` declarations; sources relative to the profile directory. */
  mounts: string[];
}

export const WorkspaceSettings: Schema<WorkspaceSettings> = Schema.object({
  cwd: Schema.string().default("/home/workspace"),
  timeoutMs: Schema.natural().min(1).default(30_000),
  maxExecutionOutputBytes: Schema.natural().min(1).default(32 * 1024 * 1024),
  quotaBytes: Schema.natural().min(1).default(1024 * 1024 * 1024),
  network: Schema.boolean().default(false),
  javascript: Schema.boolean().default(false),
  python: Schema.boolean().default(false),
  skills: Schema.array(Schema.string()).default([]),
  mounts: Schema.array(Schema.string()).default([]),
}).i18n({
  "zh-CN": {
    $description: "工作区（ishiki-workspace）：bash、read_file、write_file、edit_file 与技能",
    cwd: "shell 的默认工作目录，也是相对路径的基准。",
    timeoutMs: "单条命令的时间上限（毫秒），超时返回退出码 124。",
    maxExecutionOutputBytes: "每个输出流的安全上限（字节），不是模型的分页预算。",
    quotaBytes: "工作区与可写挂载目录合计可占用的字节数（默认 1 GiB）；超出时写入失败并返回 ENOSPC。",
    network: "允许 curl 访问公网地址（环回、私有与链路本地地址始终拒绝）。",
    javascript: "启用 js-exec（QuickJS 中的 JavaScript/TypeScript）。",
    python: "启用 python3/python（WASM 上的 CPython）。",
    skills: "额外的技能目录，相对于 profile 目录。",
    mounts: "宿主目录挂载，格式 `source:target[:ro]`；source 相对于 profile 目录，target 为 /home 之外的绝对路径。",
  },
  "en-US": {
    $description: "Workspace (ishiki-workspace): bash, read_file, write_file, edit_file and skills",
    cwd: "Default working directory of the shell and base of relative paths.",
    timeoutMs: "Time limit of one command in milliseconds; over it the command exits 124.",
    maxExecutionOutputBytes: "Safety cap per output stream in bytes; not the model's page budget.",
    quotaBytes: "Bytes the workspace and the writable mounts may hold together (default 1 GiB); a write beyond fails with ENOSPC.",
    network: "Let curl reach public addresses (loopback, private and link-local addresses are always denied).",
    javascript: "Enable js-exec (JavaScript/TypeScript in QuickJS).",
    python: "Enable python3/python (CPython on WASM).",
    skills: "Extra skill directories, relative to the profile directory.",
    mounts: "Host directory mounts as `source:target[:ro]`; source relative to the profile directory, target an absolute path outside /home.",
  },
});

/** The plugin's own Koishi config (WS-1), independent of any profile. */
export interface WorkspacePluginConfig {
  logLevel: number;
}

export const WorkspacePluginConfig: Schema<WorkspacePluginConfig> = Schema.object({
  logLevel: Schema.natural().max(3).default(Logger.INFO),
}).i18n({
  "zh-CN": { logLevel: "日志等级：0 静默，1 错误，2 信息，3 调试。" },
  "en-US": { logLevel: "Log level: 0 silent, 1 errors, 2 info, 3 debug." },
});
