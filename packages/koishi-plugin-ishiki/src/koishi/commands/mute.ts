import type { Context } from "koishi";
import { UNTIL_UNMUTED } from "../../runtime/index.js";
import type { IshikiService } from "../service.js";
import { channelRuntime } from "./channel-runtime.js";
import { refusal } from "./authority.js";
import type { CommandSettings } from "./command-kernel.js";
import { parseDuration } from "./duration.js";

/**
 * `ishiki.mute [duration]` and `ishiki.unmute` (issue 22): the owner silences the bot in the current channel
 * (private chats included), for a while or until unmuted. The mute is a `state` fact, so it survives a restart;
 * while it lasts the channel's facts are stored but never reach the wakeup engine, and `ishiki.why` names it.
 */
export function registerMute(ctx: Context, ishiki: IshikiService, options: CommandSettings): () => void {
  const mute = ctx.command("ishiki.mute [duration:string]", { authority: options.authority }).action(async ({ session }, duration) => {
    if (session === undefined) return;
    const refused = refusal(session, options);
    if (refused !== undefined) return refused;
    const ms = duration === undefined ? undefined : parseDuration(duration);
    if (duration !== undefined && ms === undefined) return session.text(".invalid", [duration]);
    const found = await channelRuntime(ishiki, session);
    if (found === undefined) return session.text("commands.ishiki.messages.unclaimed");
    const until = ms === undefined ? UNTIL_UNMUTED : Date.now() + ms;
    await found.runtime.wakeup.mutes.mute(found.channel, until);
    found.runtime.logger.info(`channel ${found.channel} muted by ${session.userId} ${ms === undefined ? "until unmuted" : `until ${new Date(until).toISOString()}`}`);
    return ms === undefined ? session.text(".muted-forever") : session.text(".muted", [new Date(until).toISOString()]);
  });
  const unmute = ctx.command("ishiki.unmute", { authority: options.authority }).action(async ({ session }) => {
    if (session === undefined) return;
    const refused = refusal(session, options);
    if (refused !== undefined) return refused;
    const found = await channelRuntime(ishiki, session);
    if (found === undefined) return session.text("commands.ishiki.messages.unclaimed");
    const was = await found.runtime.wakeup.mutes.unmute(found.channel);
    if (was) found.runtime.logger.info(`channel ${found.channel} unmuted by ${session.userId}`);
    return session.text(was ? ".unmuted" : ".not-muted");
  });
  return () => {
    unmute.dispose();
    mute.dispose();
  };
}
