export type { ExtendsEntry, ProfileConfig } from "./profile-config.js";
export type { EnabledExtension, EngineSection, ResolvedProfile } from "./resolved-profile.js";
export { resolveProfile } from "./resolve-profile.js";
