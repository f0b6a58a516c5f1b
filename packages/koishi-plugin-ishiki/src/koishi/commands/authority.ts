import type { Context, Session } from "koishi";
import type { CommandSettings } from "./command-kernel.js";
import { defineTexts } from "./format.js";

const TEXT = "ishiki.commands.no-user-table";

const texts = {
  "zh-CN": { ishiki: { commands: { "no-user-table": "无法确认你的权限：没有数据库插件时 Koishi 没有用户表，ishiki 管理命令因此不可用（或把 commandAuthority 设为 0）。" } } },
  "en-US": { ishiki: { commands: { "no-user-table": "Your authority cannot be checked: without a database plugin Koishi has no user table, so the ishiki owner commands are unavailable (or set commandAuthority to 0)." } } },
};

/** The texts `refusal` answers with; the returned function removes them. */
export function defineAuthorityTexts(ctx: Context): () => void {
  return defineTexts(ctx, texts);
}

/**
 * Koishi checks a command's authority only for sessions with a user (it skips the check when no database plugin
 * provides the user table), so without one every chat user would pass. Owner commands fail closed instead: the
 * refusal text, or undefined when the command may run.
 */
export function refusal(session: Session, settings: CommandSettings): string | undefined {
  if (settings.authority <= 0 || session.user !== undefined) return undefined;
  return session.text(TEXT);
}
