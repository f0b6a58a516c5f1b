/** One claimed channel: the address of a `channel`-mode runtime (spec 08 KP-13). */
export interface ChannelDomain {
  mode: "channel";
  platform: string;
  selfId: string;
  channelId: string;
  guildId?: string;
  isDirect: boolean;
}

/** Every claimed channel of a profile: the single runtime of `cross` mode, `platform:selfId` → channel patterns. */
export interface CrossDomain {
  mode: "cross";
  accounts: Record<string, readonly string[]>;
}

/** Where a runtime lives: which conversations its fact stream covers (spec 07 XA-14). */
export type RuntimeDomain = ChannelDomain | CrossDomain;
