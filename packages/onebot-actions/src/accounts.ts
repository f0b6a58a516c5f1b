import type { RuntimeDomain } from "koishi-plugin-ishiki";

/** One claimed channel pattern set of one OneBot account: `include` and `!`-prefixed `exclude` patterns. */
export interface OneBotAccount {
  selfId: string;
  /** Channel patterns (`456`, `private:*`, `*`, `!789`) as the domain claims them. */
  patterns: readonly string[];
}

function splitKey(key: string): { platform: string; selfId: string } {
  const cut = key.lastIndexOf(":");
  return { platform: key.slice(0, cut), selfId: key.slice(cut + 1) };
}

/** The OneBot accounts of a runtime's domain (OB-1); a channel runtime claims exactly its channel. */
export function onebotAccounts(domain: RuntimeDomain): OneBotAccount[] {
  if (domain.mode === "channel") return domain.platform === "onebot" ? [{ selfId: domain.selfId, patterns: [domain.channelId] }] : [];
  return Object.entries(domain.accounts)
    .map(([key, patterns]) => ({ ...splitKey(key), patterns }))
    .filter((account) => account.platform === "onebot")
    .map(({ selfId, patterns }) => ({ selfId, patterns }));
}

/** Exact, `*` or `prefix*`, as the kernel matches claims (08 KP-9). */
function matches(pattern: string, value: string): boolean {
  return pattern.endsWith("*") ? value.startsWith(pattern.slice(0, -1)) : value === pattern;
}

/** Whether the account's patterns claim `channelId` (a group id, or `private:<userId>`). */
export function claims(account: OneBotAccount, channelId: string): boolean {
  const include = account.patterns.filter((pattern) => !pattern.startsWith("!"));
  const exclude = account.patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => pattern.slice(1));
  return include.some((pattern) => matches(pattern, channelId)) && !exclude.some((pattern) => matches(pattern, channelId));
}

/** Group ids named literally by the account's patterns (wildcards name none). */
export function literalGroups(account: OneBotAccount): string[] {
  return account.patterns.filter((pattern) => !pattern.startsWith("!") && !pattern.endsWith("*") && !pattern.startsWith("private:"));
}

/** Whether any include pattern could claim groups beyond the literal ones. */
export function claimsGroupWildcard(account: OneBotAccount): boolean {
  return account.patterns.some((pattern) => !pattern.startsWith("!") && pattern.endsWith("*") && !pattern.startsWith("private:"));
}
