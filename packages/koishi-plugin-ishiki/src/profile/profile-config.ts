import type { FailoverConfig } from "@yesimagent/gateway";
import type { ResourceSettings } from "../attachments/index.js";
import type { BudgetSettings } from "./budget-settings.js";
import type { TextReplyMode, TypingSettings } from "./profile-settings.js";
import type { ContextEngines, EngineConfig, ToolcallEngines, WakeupEngines } from "../engines/index.js";

/** One `extends.<name>` entry (spec 08 KP-7): `{}`, `null` and `true` enable, `false` disables. */
export type ExtendsEntry = { enable?: boolean; config?: unknown } | null | boolean;

/**
 * A profile as written in koishi.yml or profile.yml (spec 08 KP-7). The engine sections are typed from the
 * augmentable engine maps, so a variant declared in `ContextEngines` types `context: { engine, <name>: {…} }`.
 */
export interface ProfileConfig {
  /** `provider:model[:level]` or a group name. */
  model: string;
  mode?: "channel" | "cross";
  /** `platform:selfId` → channel patterns. */
  channels: Record<string, string[]>;
  extends?: Record<string, ExtendsEntry>;
  failover?: FailoverConfig;
  context?: EngineConfig<ContextEngines>;
  wakeup?: EngineConfig<WakeupEngines>;
  toolcall?: EngineConfig<ToolcallEngines>;
  /** Spec 05 CT-12: `enable`, `direct`, `directOnly` and the limits. */
  codemode?: Record<string, unknown>;
  /** Spec 05 CT-21: `enable`, `resident`, `maxResults`. */
  toolsearch?: Record<string, unknown>;
  typing?: Partial<TypingSettings>;
  /** A turn ending with plain text and no `send_message`: `nudge` (default) asks once, `send` delivers it, `drop` logs it. */
  textReply?: TextReplyMode;
  resources?: Partial<ResourceSettings>;
  /** Daily token or cost limits and what happens when one is reached (issue 22). */
  budget?: Partial<BudgetSettings>;
}
