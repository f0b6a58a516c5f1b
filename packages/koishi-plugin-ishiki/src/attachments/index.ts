export { createAttachmentPlugins, type AttachmentPluginOptions, type AttachmentPlugins } from "./plugin.js";
export { DEFAULT_RESOURCE_SETTINGS, resolveResourceSettings, type ResourceSettings } from "./settings.js";
export { assertImageInput } from "./capability-gate.js";
export { attachmentInstructions } from "./instructions.js";
export { sendAttachmentRecord } from "./send-record.js";
export { probeImage, type ImageHeader } from "./image-probe.js";
