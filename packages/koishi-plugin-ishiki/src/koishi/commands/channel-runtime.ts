import type { Session } from "koishi";
import { channelKey } from "../../engines/wakeup/channel-key.js";
import type { Runtime } from "../../runtime/index.js";
import { domainOf, route } from "../ingestion.js";
import type { IshikiService } from "../service.js";

/** The runtime answering the session's channel and the channel's key, as ingestion routes it (spec 08 KP-12). */
export interface ChannelRuntime {
  runtime: Runtime;
  /** `platform:selfId/channelId`, the key wakeup decisions and mutes use (spec 06 EN-30). */
  channel: string;
}

/**
 * The runtime of the session's channel, created on first use (a command needs its fact stream and is its only
 * writer, AG-10); undefined when no active profile claims the channel.
 */
export async function channelRuntime(ishiki: IshikiService, session: Session): Promise<ChannelRuntime | undefined> {
  if (session.channelId === undefined) return undefined;
  const activation = route(ishiki.profiles(), session.platform, session.selfId, session.channelId);
  if (activation === undefined) return undefined;
  const runtime = await activation.runtime(domainOf(activation, session));
  return { runtime, channel: channelKey({ platform: session.platform, selfId: session.selfId, channelId: session.channelId }) };
}
