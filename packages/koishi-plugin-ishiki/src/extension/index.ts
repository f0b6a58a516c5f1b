export { Extension } from "./extension.js";
export type { ExtensionHost } from "./extension-host.js";
export type { ExtensionInstance } from "../extension.js";
export type { AgentRuntime } from "./agent-runtime.js";
export type { ChannelDomain, CrossDomain, RuntimeDomain } from "./runtime-domain.js";
export { EXTENDS_FORM, extendsEntryForm } from "./extends-form.js";
