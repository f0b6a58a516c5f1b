import type { ResourceSettings } from "../attachments/index.js";
import type { FailoverConfig } from "@yesimagent/gateway";
import type { BudgetSettings } from "./budget-settings.js";
import type { AccountClaim } from "./claims.js";
import type { TextReplyMode, TypingSettings } from "./profile-settings.js";

/** An engine section as the kernel passes it: the variant name plus the blocks, whole (spec 06 EN-3). */
export interface EngineSection {
  engine: string;
  [block: string]: unknown;
}

/** An enabled extension, in `extends` order, with its raw config. */
export interface EnabledExtension {
  name: string;
  config: unknown;
}

/** A profile after resolution: defaults applied, disabled extensions dropped (spec 07 XA-2). */
export interface ResolvedProfile {
  id: string;
  model: string;
  mode: "channel" | "cross";
  channels: Record<string, string[]>;
  /** `channels` parsed (KP-9, KP-10). */
  claims: AccountClaim[];
  extensions: EnabledExtension[];
  failover?: FailoverConfig;
  /** `resources` (spec 04 EX-27); defaults for what is left out. */
  resources?: Partial<ResourceSettings>;
  /** `codemode` and `toolsearch` (spec 05) as written; the runtime validates them. */
  codemode?: Record<string, unknown>;
  toolsearch?: Record<string, unknown>;
  /** `typing` with defaults (KP-33). */
  typing: TypingSettings;
  /** `textReply`, default `nudge`. */
  textReply: TextReplyMode;
  context: EngineSection;
  wakeup: EngineSection;
  toolcall: EngineSection;
  /** `budget` (issue 22), when it sets a limit. */
  budget?: BudgetSettings;
}
