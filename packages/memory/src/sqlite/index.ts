import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Schema } from "koishi";
import type { Context } from "koishi";
import { SQLiteDriver } from "@minatojs/driver-sqlite";

/**
 * SQLite for Koishi's `database` in one koishi.yml line (`ishiki-memory/sqlite: {}`): the minato SQLite driver
 * itself, since `@koishijs/plugin-database-sqlite` (3.9.0, the only release) pins the older driver that
 * Koishi 4.18's minato 3 cannot load. It serves every plugin's tables, not only memory's.
 */
export const name = "ishiki-memory-sqlite";
export const inject = ["model"];

export interface Config {
  path: string;
}

export const Config: Schema<Config> = Schema.object({
  path: Schema.path({ filters: ["file"], allowCreate: true }).default("data/koishi.db"),
}).i18n({
  "zh-CN": { path: "数据库文件路径，相对于 Koishi 根目录；`:memory:` 表示不落盘。" },
  "en-US": { path: "Database file, relative to Koishi's base directory; `:memory:` keeps nothing on disk." },
});

/** Creates the file's directory first: the driver refuses a path whose directory does not exist yet. */
export async function apply(ctx: Context, config: Config): Promise<void> {
  if (config.path !== ":memory:") await mkdir(dirname(resolve(ctx.baseDir, config.path)), { recursive: true });
  ctx.plugin(SQLiteDriver, config);
}
