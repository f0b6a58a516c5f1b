import type { RuntimeDomain } from "../extension/index.js";
import type { OutboundAddress, SendMessageInput } from "../tools/index.js";

/**
 * Where `send_message` goes (spec 08 KP-30, KP-32): the runtime's own channel in channel mode; in cross mode
 * the required target, which must be an account and channel the profile claims.
 */
export function outboundTarget(domain: RuntimeDomain, target: SendMessageInput["target"]): OutboundAddress {
  if (domain.mode === "channel") {
    const { platform, selfId, channelId, guildId } = domain;
    return guildId === undefined ? { platform, selfId, channelId } : { platform, selfId, channelId, guildId };
  }
  if (target === undefined) throw new Error("send_message: target is required in cross mode; pass { sid, channelId }");
  const split = target.sid.lastIndexOf(":");
  const platform = target.sid.slice(0, split);
  const selfId = target.sid.slice(split + 1);
  const claimed = split > 0 && Object.entries(domain.accounts).some(([account, patterns]) => {
    const cut = account.lastIndexOf(":");
    return matches(account.slice(0, cut), platform) && matches(account.slice(cut + 1), selfId) && claims(patterns, target.channelId);
  });
  if (!claimed) throw new Error(`target ${target.sid}/${target.channelId} is outside this profile's channels`);
  return { platform, selfId, channelId: target.channelId };
}

/** KP-9, KP-10: exact, `*` or `prefix*`. */
function matches(pattern: string, value: string): boolean {
  return pattern.endsWith("*") ? value.startsWith(pattern.slice(0, -1)) : value === pattern;
}

/** KP-10: some positive pattern matches and no exclusion does. */
function claims(patterns: readonly string[], channelId: string): boolean {
  const excluded = patterns.some((pattern) => pattern.startsWith("!") && matches(pattern.slice(1), channelId));
  return !excluded && patterns.some((pattern) => !pattern.startsWith("!") && matches(pattern, channelId));
}
