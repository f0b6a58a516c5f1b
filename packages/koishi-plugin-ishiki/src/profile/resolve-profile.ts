import { resolveBudget } from "./budget-settings.js";
import { parseClaims } from "./claims.js";
import type { FailoverConfig } from "@yesimagent/gateway";
import { DEFAULT_FAILOVER, DEFAULT_TYPING, TEXT_REPLY_MODES, type TextReplyMode } from "./profile-settings.js";
import type { EngineSection, EnabledExtension, ResolvedProfile } from "./resolved-profile.js";

const PROFILE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const DEFAULT_ENGINES = { context: "standard", wakeup: "standard", toolcall: "native" } as const;

/**
 * Resolves a profile (spec 08 KP-7, KP-8, 07 XA-2): defaults for what is missing, `channels` parsed into claims,
 * disabled extensions dropped. The Koishi `Schema` checks types first; this is the part a schema cannot say.
 * Throws `<path>: <reason>` for what it cannot use.
 */
export function resolveProfile(id: string, raw: unknown): ResolvedProfile {
  if (!PROFILE_ID.test(id)) throw new Error(`id: "${id}" is not a valid profile id; use [A-Za-z0-9][A-Za-z0-9_-]*`);
  const input = record(raw, "profile");
  if (typeof input.model !== "string" || input.model.trim() === "") throw new Error("model: expected a model reference");
  const mode = input.mode ?? "channel";
  if (mode !== "channel" && mode !== "cross") throw new Error(`mode: expected channel or cross`);
  const claimed = channels(input.channels);
  const profile: ResolvedProfile = {
    id,
    model: input.model,
    mode,
    channels: claimed,
    claims: parseClaims(claimed),
    extensions: extensions(input.extends),
    context: section(input.context, "context"),
    wakeup: section(input.wakeup, "wakeup"),
    toolcall: section(input.toolcall, "toolcall"),
    typing: { ...DEFAULT_TYPING, ...optional(input.typing, "typing") },
    textReply: textReply(input.textReply),
    failover: { ...DEFAULT_FAILOVER, ...optional(input.failover, "failover") } as FailoverConfig,
  };
  if (input.resources !== undefined) profile.resources = record(input.resources, "resources");
  if (input.codemode !== undefined) profile.codemode = record(input.codemode, "codemode");
  if (input.toolsearch !== undefined) profile.toolsearch = record(input.toolsearch, "toolsearch");
  const budget = resolveBudget(input.budget);
  if (budget !== undefined) profile.budget = budget;
  return profile;
}

function textReply(value: unknown): TextReplyMode {
  if (value === undefined || value === null) return "nudge";
  if (!TEXT_REPLY_MODES.includes(value as TextReplyMode)) throw new Error(`textReply: expected ${TEXT_REPLY_MODES.join(", ")}`);
  return value as TextReplyMode;
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${path}: expected an object`);
  return value as Record<string, unknown>;
}

function optional(value: unknown, path: string): Record<string, unknown> {
  return value === undefined || value === null ? {} : record(value, path);
}

function channels(value: unknown): Record<string, string[]> {
  if (value === undefined || value === null) throw new Error("channels: claims no accounts");
  const out: Record<string, string[]> = {};
  for (const [account, patterns] of Object.entries(record(value, "channels"))) {
    if (!Array.isArray(patterns) || patterns.some((pattern) => typeof pattern !== "string")) throw new Error(`channels.${account}: expected a list of patterns`);
    out[account] = patterns as string[];
  }
  return out;
}

function extensions(value: unknown): EnabledExtension[] {
  if (value === undefined || value === null) return [];
  const out: EnabledExtension[] = [];
  for (const [name, entry] of Object.entries(record(value, "extends"))) {
    if (entry === false) continue;
    if (entry === true || entry === null) {
      out.push({ name, config: undefined });
      continue;
    }
    const body = record(entry, `extends.${name}`);
    if (body.enable === false) continue;
    out.push({ name, config: body.config });
  }
  return out;
}

function section(value: unknown, family: keyof typeof DEFAULT_ENGINES): EngineSection {
  if (value === undefined || value === null) return { engine: DEFAULT_ENGINES[family] };
  const body = record(value, family);
  const engine = body.engine ?? DEFAULT_ENGINES[family];
  if (typeof engine !== "string" || engine === "") throw new Error(`${family}.engine: expected a variant name`);
  return { ...body, engine };
}
