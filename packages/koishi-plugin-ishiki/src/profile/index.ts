export type { ExtendsEntry, ProfileConfig } from "./profile-config.js";
export type { EnabledExtension, EngineSection, ResolvedProfile } from "./resolved-profile.js";
export { resolveProfile } from "./resolve-profile.js";
export { accountOf, claimsChannel, matchesPattern, overlappingAccount, parseClaims, type AccountClaim } from "./claims.js";
export { DEFAULT_FAILOVER, DEFAULT_TYPING, TEXT_REPLY_MODES, type TextReplyMode, type TypingSettings } from "./profile-settings.js";
export { BUDGET_BEHAVIOURS, resolveBudget, type BudgetSettings } from "./budget-settings.js";
export { loadProfileSources, type ProfileSource, type ProfileSourceError } from "./profile-sources.js";
