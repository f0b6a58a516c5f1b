import type { Session } from "koishi";

/** How a command of issue 22 is registered: the authority a user needs (admin, 3, by default). */
export interface CommandOptions {
  authority: number;
}

/**
 * Koishi checks a command's authority only for sessions with a user, and without a database plugin there is no
 * user table, so every chat user would pass. These commands fail closed instead: the refusal text, or undefined
 * when the command may run.
 */
export function refusal(session: Session, options: CommandOptions): string | undefined {
  if (options.authority <= 0 || session.user !== undefined) return undefined;
  return session.text("commands.ishiki.messages.no-user-table");
}
