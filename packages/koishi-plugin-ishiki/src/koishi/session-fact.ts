import { randomUUID } from "node:crypto";
import type { Session } from "koishi";
import type { IshikiEvent, IshikiMessageCreated, IshikiMessageDeleted, IshikiUser } from "../types/index.js";

/**
 * The fact of a Koishi session (spec 08 KP-23 .. KP-25): `message-created` and `message-deleted` only, and
 * never the bot's own messages (KP-26: its speech exists only as tool calls). Undefined for anything else.
 */
export function sessionFact(session: Session): IshikiEvent | undefined {
  if (session.userId !== undefined && session.userId === session.selfId) return undefined;
  const timestamp = session.timestamp || Date.now();
  const { platform, selfId, channelId, messageId } = session;
  if (channelId === undefined || channelId === "" || messageId === undefined || messageId === "") return undefined;
  if (session.type === "message-created" || session.type === "message") {
    const data: IshikiMessageCreated = {
      timestamp,
      platform,
      selfId,
      channelId,
      isDirect: session.isDirect === true || channelId.startsWith("private:"),
      messageId,
      content: session.content ?? "",
      user: author(session),
    };
    if (session.guildId) data.guildId = session.guildId;
    const quote = session.quote;
    if (quote?.id) {
      data.quote = { id: quote.id, content: quote.content ?? "" };
      if (quote.user?.id) data.quote.user = { id: quote.user.id, name: quote.user.nick || quote.user.name || quote.user.id };
      if (quote.channel?.id) data.quote.channelId = quote.channel.id;
    }
    return { id: randomUUID(), timestamp, role: "custom", type: "ishiki.message.created", data };
  }
  if (session.type === "message-deleted") {
    const data: IshikiMessageDeleted = { timestamp, platform, selfId, channelId, messageId };
    const userId = session.event.user?.id ?? session.userId;
    if (userId) data.userId = userId;
    const operatorId = session.event.operator?.id;
    if (operatorId) data.operatorId = operatorId;
    return { id: randomUUID(), timestamp, role: "custom", type: "ishiki.message.deleted", data };
  }
  return undefined;
}

/** First non-empty of member nick, user nick, user name, user id (a snapshot of this message, KP-24). */
function author(session: Session): IshikiUser {
  const id = session.userId ?? "";
  const { member, user } = session.event;
  const name = [member?.nick, user?.nick, user?.name, id].find((value) => typeof value === "string" && value.trim() !== "");
  return { id, name: name ?? id };
}
