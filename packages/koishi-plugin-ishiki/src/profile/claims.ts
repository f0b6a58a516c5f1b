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
 * Platforms whose names carry a colon themselves: the Koishi sandbox names each of its platforms `sandbox:<id>`,
 * so an account key is `sandbox:<id>:<selfId>`, and `sandbox:*` (platform exactly `sandbox`) matches nothing.
 */
const COLON_PLATFORMS: Readonly<Record<string, string>> = { sandbox: "sandbox:<id>:<selfId>, e.g. \"sandbox:*:*\"" };

/**
 * Parses `channels` (KP-8 .. KP-10). Throws `channels: claims no accounts` for an empty map, and
 * `channels.<key>: <reason>` for a key without `:`, an empty or bare `!` pattern, or no positive pattern, and for
 * a pattern no address can match (issue 20): an empty platform or self id, a `*` that is not trailing, a platform
 * that is always named with a colon of its own. The error names the expected shape.
 */
export function parseClaims(channels: Record<string, readonly string[]>): AccountClaim[] {
  const keys = Object.keys(channels);
  if (keys.length === 0) throw new Error("channels: claims no accounts");
  return keys.map((key) => {
    const cut = key.lastIndexOf(":");
    if (cut < 0) throw new Error(`channels.${key}: account key needs platform:selfId`);
    const claim: AccountClaim = { key, platform: key.slice(0, cut), selfId: key.slice(cut + 1), include: [], exclude: [] };
    const unmatchable = unmatchableAccount(claim.platform, claim.selfId);
    if (unmatchable) throw new Error(`channels.${key}: ${unmatchable}`);
    for (const pattern of channels[key]) {
      if (pattern === "" || pattern === "!") throw new Error(`channels.${key}: empty pattern`);
      if (!wildcardTrails(pattern.startsWith("!") ? pattern.slice(1) : pattern)) throw new Error(`channels.${key}: pattern "${pattern}" matches no channel; a * only works at the end (*, prefix*, or an exact id)`);
      if (pattern.startsWith("!")) claim.exclude.push(pattern.slice(1));
      else claim.include.push(pattern);
    }
    if (claim.include.length === 0) throw new Error(`channels.${key}: no positive pattern`);
    return claim;
  });
}

/** Why an account key can match no `platform:selfId` address, if it cannot. */
function unmatchableAccount(platform: string, selfId: string): string | undefined {
  const shape = "the key is platform:selfId (each exact, * or prefix*)";
  if (platform === "") return `matches no account: the platform is empty; ${shape}`;
  if (selfId === "") return `matches no account: the self id is empty; ${shape}`;
  if (!wildcardTrails(platform) || !wildcardTrails(selfId)) return `matches no account: a * only works at the end; ${shape}`;
  const colonShape = COLON_PLATFORMS[platform];
  if (colonShape) return `matches no account: ${platform} platforms are named ${platform}:<id>, so the key is ${colonShape}`;
  return undefined;
}

/** `*` appears at most once, and only as the last character. */
function wildcardTrails(pattern: string): boolean {
  const star = pattern.indexOf("*");
  return star === -1 || star === pattern.length - 1;
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
