/** Where one platform message goes. */
export interface OutboundAddress {
  platform: string;
  selfId: string;
  channelId: string;
  guildId?: string;
}

/**
 * How `send_message` reaches a platform (spec 08 KP-34, 00 OV-8): the Koishi implementation lives in `koishi/`,
 * tests use `createMemoryOutboundPort`. `send` delivers one message (element markup) and resolves with the
 * platform's message ids; it rejects when the message could not be sent.
 */
export interface OutboundPort {
  send(address: OutboundAddress, content: string): Promise<string[]>;
}
