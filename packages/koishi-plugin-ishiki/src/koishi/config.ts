import { Schema } from "koishi";
import type { GatewayConfig } from "@yesimagent/gateway";
import { defaultCodemodeWorkers } from "../codemode/index.js";
import { ModelsSchema } from "./models-schema.js";
import { ProfileSchema } from "./profile-schema.js";

export interface IshikiConfig {
  /** Where profiles, runtimes and the store live, relative to Koishi's base directory. */
  dataPath: string;
  /** Model providers and groups (spec 02). */
  models?: GatewayConfig;
  /** Profile id → profile (spec 08 KP-7). */
  profiles?: Record<string, unknown>;
  /** Write every model HTTP exchange under `<dataPath>/dumps` (02 GW-28). */
  dumpRequests?: boolean;
  /** Print the model stream as it arrives (KP-6). */
  debugStream?: boolean;
  /** 0 silent, 1 errors, 2 info and warnings, 3 debug. */
  logLevel?: number;
  /** Codemode worker threads shared by every runtime and profile of the process (issue 19); default from the cores. */
  codemodeWorkers?: number;
  /** Koishi authority the `ishiki.*` owner commands need (issue 22); admins (3) by default. */
  commandAuthority?: number;
}

export const DEFAULT_COMMAND_AUTHORITY = 3;

/** The plugin's form in the Koishi console (spec 08 KP-1, KP-2). */
export const IshikiConfig = Schema.object({
  dataPath: Schema.path({ filters: ["directory"], allowCreate: true }).default("data/ishiki"),
  models: ModelsSchema.default({ providers: {}, groups: {} }),
  // A broken profile must not fail the whole plugin (KP-8): the hidden `any` takes what the profile schema refuses,
  // and start-up validates each profile again to skip it with its reason. The console renders the profile form,
  // since it ignores hidden variants of a union.
  profiles: Schema.dict(Schema.union([ProfileSchema, Schema.any().hidden()])).default({}),
  dumpRequests: Schema.boolean().default(false),
  debugStream: Schema.boolean().default(false),
  logLevel: Schema.natural().min(0).max(3).default(2),
  codemodeWorkers: Schema.natural().min(1).max(64).default(defaultCodemodeWorkers()),
  commandAuthority: Schema.natural().max(5).default(DEFAULT_COMMAND_AUTHORITY),
}).i18n({
  "zh-CN": {
    dataPath: "数据目录：profile、运行时事实流与资源存储的位置，相对于 Koishi 的基础目录。",
    models: "模型网关：提供方（providers）与模型组（groups）。",
    profiles: "profile：机器人配置（模型、认领的频道、扩展与引擎），键为 profile id。",
    dumpRequests: "把每次模型 HTTP 请求与响应写入数据目录（用于排查）。",
    debugStream: "在日志中逐段打印模型输出流（调试用）。",
    logLevel: "日志级别：0 静默，1 仅错误，2 信息与警告，3 调试。",
    codemodeWorkers: "codemode 工作线程数：进程内所有运行时与 profile 共用，更多程序排队等待。默认取 CPU 核数（至多 4）。",
    commandAuthority: "使用 ishiki.status、ishiki.usage、ishiki.reset 等管理命令所需的 Koishi 权限等级（默认 3，管理员）。",
  },
  "en-US": {
    dataPath: "Data directory for profiles, runtime fact streams and the resource store, relative to Koishi's base directory.",
    models: "Model gateway: providers and groups.",
    profiles: "Profiles (model, claimed channels, extensions, engines), keyed by profile id.",
    dumpRequests: "Write every model HTTP exchange into the data directory (for troubleshooting).",
    debugStream: "Print the model stream to the log as it arrives (debugging).",
    logLevel: "Log level: 0 silent, 1 errors, 2 info and warnings, 3 debug.",
    codemodeWorkers: "Codemode worker threads, shared by every runtime and profile of the process; further programs wait in a queue. Defaults to the CPU cores (at most 4).",
    commandAuthority: "Koishi authority level the owner commands (ishiki.status, ishiki.usage, ishiki.reset, ...) need (default 3, admins).",
  },
});
