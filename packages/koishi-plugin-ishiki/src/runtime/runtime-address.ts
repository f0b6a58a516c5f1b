import { createHash } from "node:crypto";
import { join } from "node:path";
import type { RuntimeDomain } from "../extension/index.js";

const MAX_SEGMENT = 120;
const KEPT_PREFIX = 100;

/**
 * One path segment of a runtime home (spec 08 KP-15), injective: `%`, `< > : " / \ | ? *`, control characters
 * and a leading or trailing dot or space become `%XX`; a segment over 120 characters keeps its first 100 and
 * appends `~<16 hex of sha256(segment)>`.
 */
export function encodeSegment(segment: string): string {
  let out = segment.replace(/[%<>:"/\\|?*\u0000-\u001f\u007f]/g, percent);
  out = out.replace(/^[. ]/, percent).replace(/[. ]$/, percent);
  if (out.length <= MAX_SEGMENT) return out;
  const digest = createHash("sha256").update(segment).digest("hex").slice(0, 16);
  return `${out.slice(0, KEPT_PREFIX)}~${digest}`;
}

function percent(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
}

/** `<profileId>/<platform>:<selfId>/<channelId>` or `<profileId>/main` (KP-14). */
export function runtimeIdOf(profileId: string, domain: RuntimeDomain): string {
  if (domain.mode === "cross") return `${profileId}/main`;
  return `${profileId}/${domain.platform}:${domain.selfId}/${domain.channelId}`;
}

/** `<root>/runtimes/<enc(platform:selfId)>/<enc(channelId)>` or `<root>/runtimes/main` (KP-14). */
export function runtimeHomeOf(root: string, domain: RuntimeDomain): string {
  if (domain.mode === "cross") return join(root, "runtimes", "main");
  return join(root, "runtimes", encodeSegment(`${domain.platform}:${domain.selfId}`), encodeSegment(domain.channelId));
}
