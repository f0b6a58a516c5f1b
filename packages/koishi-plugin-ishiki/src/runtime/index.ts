export { createRuntime } from "./create-runtime.js";
export type { ExtensionProvider, Runtime, RuntimeOptions, RuntimeProviders } from "./runtime-contract.js";
export { encodeSegment, runtimeHomeOf, runtimeIdOf } from "./runtime-address.js";
export { mergeToolGroups, RESERVED_TOOL_NAMES, toolConflict, type ToolGroup } from "./tool-assembly.js";
export { stopRule } from "./stop-rule.js";
export { RuntimeRegistry, type RuntimeFactory } from "./runtime-registry.js";
export { runtimesStopped } from "./home-lease.js";
export { ChannelMutes } from "./channel-mutes.js";
export type { WakeupAttachment } from "./wakeup-attach.js";
