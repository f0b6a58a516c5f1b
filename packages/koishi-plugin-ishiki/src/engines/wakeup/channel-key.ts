import type { IshikiMessageCreated } from "../../types/index.js";

/** The key wakeup engines keep per-channel state under: `platform:selfId/channelId` (spec 06 EN-30). */
export function channelKey(address: Pick<IshikiMessageCreated, "platform" | "selfId" | "channelId">): string {
  return `${address.platform}:${address.selfId}/${address.channelId}`;
}
