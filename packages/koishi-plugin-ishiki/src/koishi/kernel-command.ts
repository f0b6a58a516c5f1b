import type { Context, Session } from "koishi";

const KERNEL_COMMAND = /^[^\s\w]{0,2}(ishiki\.[\w-]+)(?:\s|$)/;

/**
 * Whether the session invokes one of the kernel's own commands (`ishiki.why`, `ishiki.mute`, ..., issue 22). Those
 * are the owner talking to the kernel, not chat: they are not stored as facts, so `ishiki.mute` in a private chat
 * does not wake the bot it mutes, and `ishiki.why` does not count itself.
 */
export function isKernelCommand(ctx: Context, session: Session): boolean {
  const name = KERNEL_COMMAND.exec(session.stripped?.content ?? "")?.[1];
  return name !== undefined && ctx.$commander.get(name, session) !== undefined;
}
