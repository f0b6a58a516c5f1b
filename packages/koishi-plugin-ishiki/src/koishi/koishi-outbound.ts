import type { Context } from "koishi";
import type { OutboundPort } from "../tools/index.js";

/** `send_message` through the Koishi bot of the target account (spec 08 KP-32, KP-34). */
export function createKoishiOutboundPort(ctx: Context): OutboundPort {
  return {
    async send(address, content) {
      const bot = ctx.bots[`${address.platform}:${address.selfId}`];
      if (bot === undefined) throw new Error(`bot ${address.platform}:${address.selfId} is not available`);
      const ids = await bot.sendMessage(address.channelId, content, address.guildId);
      if (ids.length === 0) ctx.logger("ishiki").warn(`bot ${address.platform}:${address.selfId} returned no message id for a message to ${address.channelId}`);
      return ids;
    },
  };
}
