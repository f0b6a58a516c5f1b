import { Schema } from "koishi";

export interface IshikiConfig {
  /** Where profiles, runtimes and the store live, relative to Koishi's base directory. */
  dataPath: string;
}

export const IshikiConfig: Schema<IshikiConfig> = Schema.object({
  dataPath: Schema.path({ filters: ["directory"], allowCreate: true }).default("data/ishiki"),
}).i18n({
  "zh-CN": {
    dataPath: "数据目录：profile、运行时事实流与资源存储的位置，相对于 Koishi 的基础目录。",
  },
  "en-US": {
    dataPath: "Data directory for profiles, runtime fact streams and the resource store, relative to Koishi's base directory.",
  },
});
