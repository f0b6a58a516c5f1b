import { Schema } from "koishi";
import type { GatewayConfig } from "../gateway/index.js";

export interface IshikiConfig {
  /** Where profiles, runtimes and the store live, relative to Koishi's base directory. */
  dataPath: string;
  /** Model providers and groups (spec 02). */
  models?: GatewayConfig;
  /** Profile id → profile (spec 08 KP-7). */
  profiles?: Record<string, unknown>;
}

export const IshikiConfig: Schema<IshikiConfig> = Schema.object({
  dataPath: Schema.path({ filters: ["directory"], allowCreate: true }).default("data/ishiki"),
  models: Schema.object({
    providers: Schema.dict(Schema.any()).default({}),
    groups: Schema.dict(Schema.any()).default({}),
  }).default({ providers: {}, groups: {} }),
  profiles: Schema.dict(Schema.any()).default({}),
}).i18n({
  "zh-CN": {
    dataPath: "数据目录：profile、运行时事实流与资源存储的位置，相对于 Koishi 的基础目录。",
    models: "模型网关：提供方（providers）与模型组（groups）。",
    profiles: "profile：机器人配置（模型、认领的频道、扩展与引擎），键为 profile id。",
  },
  "en-US": {
    dataPath: "Data directory for profiles, runtime fact streams and the resource store, relative to Koishi's base directory.",
    models: "Model gateway: providers and groups.",
    profiles: "Profiles (model, claimed channels, extensions, engines), keyed by profile id.",
  },
});
