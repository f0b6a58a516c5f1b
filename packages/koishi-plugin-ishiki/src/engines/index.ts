export { ContextEngine } from "./context-engine.js";
export { WakeupEngine } from "./wakeup-engine.js";
export { ToolcallEngine } from "./toolcall-engine.js";
export { ToolcallEngineInstance } from "./toolcall-engine-instance.js";
export type { ContextEngineInstance } from "./context-engine-instance.js";
export type { ContextRequest } from "./context-request.js";
export { contextRetention, retentionOf, type ContextRetention, type RetainingContext } from "./context-retention.js";
export { wakeupHistory, wakeupObserverOf, type HistoryObserver, type ObservingWakeup } from "./history-observer.js";
export type { WakeupEngineInstance } from "./wakeup-engine-instance.js";
export { WAKEUP_DECISIONS_KEPT, WakeupDecisionRing, type WakeupDecision, type WakeupReport } from "./wakeup-decision.js";
export { bindWakeupEnvironment, realWakeupEnvironment, wakeupEnvironment, type WakeupEnvironment } from "./wakeup-environment.js";
export {
  engineServiceName,
  type ContextEngines,
  type EngineConfig,
  type EngineFamily,
  type JudgeWakeupConfig,
  type NarrativeContextConfig,
  type NarrativeToolcallConfig,
  type NativeToolcallConfig,
  type StandardContextConfig,
  type StandardWakeupConfig,
  type TextProtocolToolcallConfig,
  type ToolcallEngines,
  type V3ContextConfig,
  type V3ToolcallConfig,
  type V3WakeupConfig,
  type WakeupEngines,
} from "./engine-maps.js";
export { isValidatingEngine, validateBlock, type ValidatedBlock, type ValidatingEngine } from "./block-validation.js";
// The built-in variants live in sub-folders below this file in the import order; the kernel imports them
// from there (koishi/builtin-engines.ts) and the package index re-exports what is public.
