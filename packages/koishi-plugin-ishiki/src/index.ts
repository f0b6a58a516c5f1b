import { IshikiService } from "./koishi/service.js";

// The agent core and, through it, one AI SDK for every extension (spec 00 OV-14, OV-15). Ishiki's own exports
// below win over same-named star exports (`createGateway` is Ishiki's gateway, not the AI SDK's).
export * from "@yesimagent/core";

export type {
  IshikiAttachment,
  IshikiAttachmentItem,
  IshikiAttachmentLifetime,
  IshikiCompact,
  IshikiDelivery,
  IshikiEvent,
  IshikiEventType,
  IshikiMessageCreated,
  IshikiMessageDeleted,
  IshikiToolsCatalog,
  IshikiUser,
} from "./types/index.js";

export { createGateway, GatewayError, ModelTimeoutError } from "@yesimagent/gateway";
export type {
  CircuitBreakerConfig,
  CreateGatewayOptions,
  FailoverConfig,
  Gateway,
  GatewayConfig,
  GatewayLogger,
  GroupConfig,
  GroupStrategy,
  ModelConfig,
  ModelModality,
  ModelTimeouts,
  ModelType,
  ProviderConfig,
  ReasoningLevel,
} from "@yesimagent/gateway";

export { containPath, FileScheme, ResourceError } from "./resources/index.js";
// Race-safe host file access for extensions that mount host directories (the workspace).
export { checkDescriptor, HostFileError, openChecked, pathAt, readBounded, refuseSpecial, systemErrorText } from "./resources/index.js";
export type { CheckedFile, OpenCheckedOptions } from "./resources/index.js";
// The CJK-aware tokenizer of tool search (spec 05 CT-24), for extensions that index text the same way.
export { tokenize } from "./toolsearch/index.js";
export type {
  ArtifactContent,
  FileEntry,
  FilePayload,
  FileSource,
  FileUrl,
  ResourceCenter,
  ResourceErrorCode,
  ResourceFileSystem,
  ResourcePayload,
  ResourceStore,
  SchemeHandler,
  TextPayload,
} from "./resources/index.js";

// The extension API (spec 07), the engine families (06) and the kernel's runtime vocabulary.
export { EXTENDS_FORM, Extension, extendsEntryForm } from "./extension/index.js";
export type { AgentRuntime, ChannelDomain, CrossDomain, ExtensionHost, ExtensionInstance, RuntimeDomain } from "./extension/index.js";
export { ContextEngine, ToolcallEngine, ToolcallEngineInstance, WakeupEngine } from "./engines/index.js";
// The wakeup family's optional explanation contract (issue 22): third-party engines report decisions and read
// the clock through it, so ishiki.why explains them and a policy preview can replay them.
export { wakeupEnvironment } from "./engines/index.js";
export type { WakeupDecision, WakeupEnvironment, WakeupReport } from "./engines/index.js";
export type { WakeupPreview, PreviewMessage } from "./runtime/index.js";
export type { ChannelPreviewRequest } from "./koishi/channel-preview.js";
export type { ContextEngineInstance, ContextEngines, ContextRequest, EngineConfig, ToolcallEngines, WakeupEngineInstance, WakeupEngines } from "./engines/index.js";
export { StandardContextEngine } from "./engines/context/standard.js";
export { NarrativeContextEngine } from "./engines/context/narrative.js";
export { NarrativeToolcallEngine, NarrativeToolcallInstance } from "./engines/toolcall/narrative.js";
export { NARRATIVE_MARKER } from "./engines/shared/narrative-marker.js";
export { V3ContextEngine } from "./engines/context/v3.js";
export { JudgeWakeupEngine, StandardWakeupEngine, V3WakeupEngine } from "./engines/wakeup/index.js";
export {
  HermesToolcallEngine,
  MorphXmlToolcallEngine,
  Qwen3CoderToolcallEngine,
  TextProtocolToolcallEngine,
  YamlXmlToolcallEngine,
} from "./engines/toolcall/text-protocol.js";
export { TextProtocolToolcallInstance } from "./engines/toolcall/text-protocol-instance.js";
export type { TextProtocolName } from "./engines/toolcall/text-protocol-formats.js";
export { V3ToolcallEngine, V3ToolcallInstance } from "./engines/toolcall/v3.js";
export { NativeToolcallEngine, NativeToolcallInstance } from "./engines/toolcall/native.js";
export type { ExtendsEntry, ProfileConfig, TypingSettings } from "./profile/index.js";
export type { Runtime } from "./runtime/index.js";
export { createMemoryOutboundPort } from "./tools/index.js";
export type { MemoryOutboundPort, OutboundAddress, OutboundPort } from "./tools/index.js";
export { ProfileActivation, ProfileSchema, type ActivationStatus } from "./koishi/index.js";

export { IshikiService };
export type { IshikiConfig } from "./koishi/config.js";
export default IshikiService;
