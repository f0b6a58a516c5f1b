import type { IshikiMessageCreated, IshikiMessageDeleted, IshikiUser } from "../../types/index.js";

/** `Name(id)`, or the id alone when the name is missing or equals it (spec 06 EN-10). */
export function formatAuthor(user: IshikiUser): string {
  return user.name && user.name !== user.id ? `${user.name}(${user.id})` : user.id;
}

/** `MM-DD HH:mm` in the host's local time. */
export function formatStamp(timestamp: number): string {
  const date = new Date(timestamp);
  const pad = (value: number): string => String(value).padStart(2, "0");
  return `${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** `[MM-DD HH:mm] Name(id) #messageId: content` (EN-10). */
export function renderCreated(fact: IshikiMessageCreated): string {
  return `[${formatStamp(fact.timestamp)}] ${formatAuthor(fact.user)} #${fact.messageId}: ${fact.content}`;
}

/**
 * A retraction (EN-10): by the author (`userId == operatorId`), by someone else, or anonymous when ids are
 * missing. Names come from facts seen earlier in the same stream; `names` maps user ids to names.
 */
export function renderDeleted(fact: IshikiMessageDeleted, names: ReadonlyMap<string, string>): string {
  const who = (id: string): string => formatAuthor({ id, name: names.get(id) ?? id });
  const { userId, operatorId, messageId } = fact;
  if (userId !== undefined && operatorId !== undefined) {
    if (userId === operatorId) return `${who(userId)} retracted their message #${messageId}`;
    return `${who(userId)}'s message #${messageId} was retracted by ${who(operatorId)}`;
  }
  if (userId === undefined && operatorId !== undefined) return `A message #${messageId} was retracted by ${who(operatorId)}`;
  return `A message #${messageId} was retracted`;
}

/** `[#<platform>:<selfId>/<channelId>]`: the head of a run of lines from one channel in cross mode (EN-11). */
export function channelHead(fact: { platform: string; selfId: string; channelId: string }): string {
  return `[#${fact.platform}:${fact.selfId}/${fact.channelId}]`;
}
