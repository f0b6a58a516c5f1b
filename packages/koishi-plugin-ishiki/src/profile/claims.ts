/** One account of a profile's `channels` (spec 08 KP-9, KP-10): the key split at its last colon, and its patterns. */
export interface AccountClaim {
  /** The key as written, `platform:selfId`. */
  key: string;
  platform: string;
  selfId: string;
  include: string[];
  exclude: string[];
}

/**
 * Parses `channels` (KP-8 .. KP-10). Throws `channels: claims no accounts` for an empty map, and
 * `channels.<key>: <reason>` for a key without `:`, an empty or bare `!` pattern, or no positive pattern.
 */
export function parseClaims(channels: Record<string, readonly string[]>): AccountClaim[] {
  const keys = Object.keys(channels);
  if (keys.length === 0) throw new Error("channels: claims no accounts");
  return keys.map((key) => {
    const cut = key.lastIndexOf(":");
    if (cut < 0) throw new Error(`channels.${key}: account key needs platform:selfId`);
    const claim: AccountClaim = { key, platform: key.slice(0, cut), selfId: key.slice(cut + 1), include: [], exclude: [] };
    for (const pattern of channels[key]) {
      if (pattern === "" || pattern === "!") throw new Error(`channels.${key}: empty pattern`);
      if (pattern.startsWith("!")) claim.exclude.push(pattern.slice(1));
      else claim.include.push(pattern);
    }
    if (claim.include.length === 0) throw new Error(`channels.${key}: no positive pattern`);
    return claim;
  });
}

/** Exact, `*` or `prefix*` (KP-9, KP-10). */
export function matchesPattern(pattern: string, value: string): boolean {
  return pattern.endsWith("*") ? value.startsWith(pattern.slice(0, -1)) : value === pattern;
}

/** The account claim covering this account, when one does. */
export function accountOf(claims: readonly AccountClaim[], platform: string, selfId: string): AccountClaim | undefined {
  return claims.find((claim) => matchesPattern(claim.platform, platform) && matchesPattern(claim.selfId, selfId));
}

/** Whether the claims cover a channel: some positive pattern matches and no exclusion does; order is irrelevant. */
export function claimsChannel(claims: readonly AccountClaim[], platform: string, selfId: string, channelId: string): boolean {
  return claims.some(
    (claim) =>
      matchesPattern(claim.platform, platform) &&
      matchesPattern(claim.selfId, selfId) &&
      claim.include.some((pattern) => matchesPattern(pattern, channelId)) &&
      !claim.exclude.some((pattern) => matchesPattern(pattern, channelId)),
  );
}

/**
 * The first account of `b` whose claims overlap `a` (KP-11): account patterns intersect and some channel id
 * matches a positive pattern of each side and an exclusion of neither.
 */
export function overlappingAccount(a: readonly AccountClaim[], b: readonly AccountClaim[]): string | undefined {
  for (const right of b) {
    for (const left of a) {
      if (!intersects(left.platform, right.platform) || !intersects(left.selfId, right.selfId)) continue;
      if (channelsOverlap(left, right)) return right.key;
    }
  }
  return undefined;
}

/** Two exact / `prefix*` patterns share a value. */
function intersects(p: string, q: string): boolean {
  const pw = p.endsWith("*");
  const qw = q.endsWith("*");
  if (!pw && !qw) return p === q;
  if (pw && !qw) return matchesPattern(p, q);
  if (!pw && qw) return matchesPattern(q, p);
  const [a, b] = [p.slice(0, -1), q.slice(0, -1)];
  return a.startsWith(b) || b.startsWith(a);
}

function channelsOverlap(left: AccountClaim, right: AccountClaim): boolean {
  const exclusions = [...left.exclude, ...right.exclude];
  for (const p of left.include) {
    for (const q of right.include) {
      if (!intersects(p, q)) continue;
      const exact = !p.endsWith("*") ? p : !q.endsWith("*") ? q : undefined;
      if (exact !== undefined) {
        if (!exclusions.some((pattern) => matchesPattern(pattern, exact))) return true;
        continue;
      }
      // Both prefixes: the common set is everything under the longer prefix, infinite; only `*` or an
      // exclusion whose prefix is a prefix of it covers all of it.
      const longer = p.length >= q.length ? p.slice(0, -1) : q.slice(0, -1);
      if (!exclusions.some((pattern) => pattern.endsWith("*") && longer.startsWith(pattern.slice(0, -1)))) return true;
    }
  }
  return false;
}
