/** `context.standard` (spec 06 EN-12); budget and compaction use it. */
export interface StandardContextConfig {
  maxTokens?: number;
  refillRatio?: number;
}

/** `context.v3` (spec 06 EN-18): a message window and memory blocks. */
export interface V3ContextConfig {
  maxMessages?: number;
  keepFullTurnCount?: number;
  memoryBlocks?: boolean;
}

/** `context.narrative` (spec 06 EN-21). */
export interface NarrativeContextConfig {
  maxMessages?: number;
}

/** `wakeup.standard`: hit rules (spec 06 EN-26), debounce (EN-27), cooldown and caps (EN-28), mute (EN-29). */
export interface StandardWakeupConfig {
  direct?: boolean;
  atSelf?: boolean;
  quoteSelf?: boolean;
  keywords?: string[];
  debounceMs?: number;
  debounceMaxMs?: number;
  cooldownMs?: number;
  maxTurnsPerHour?: number;
  muteKeywords?: string[];
  muteMinutes?: number;
  unmuteKeywords?: string[];
  ignoreUsers?: string[];
}

/** `wakeup.v3` willingness (spec 06 EN-31). */
export interface V3WakeupConfig {
  base?: number;
  atMention?: number;
  isQuote?: number;
  isDirectMessage?: number;
  keywords?: string[];
  keywordMultiplier?: number;
  defaultMultiplier?: number;
  maxWillingness?: number;
  decayHalfLifeSeconds?: number;
  probabilityThreshold?: number;
  probabilityAmplifier?: number;
  replyCost?: number;
}

/** `wakeup.judge`, an LLM judge (spec 06 EN-35). */
export interface JudgeWakeupConfig {
  model?: string;
  threshold?: number;
  cooldownMs?: number;
  timeoutMs?: number;
  historyMessages?: number;
  instruction?: string;
  interests?: string[];
  rules?: { direct?: boolean; atSelf?: boolean; quoteSelf?: boolean; keywords?: string[] };
}

/** `toolcall.native` takes no settings. */
export type NativeToolcallConfig = Record<string, never>;

/** The text tool-call protocols (`hermes`, `morph-xml`, `qwen3coder`, `yaml-xml`, spec 06 EN-40) take no settings. */
export type TextProtocolToolcallConfig = Record<string, never>;

/** `toolcall.v3`, the JSON action protocol (spec 06 EN-41), takes no settings. */
export type V3ToolcallConfig = Record<string, never>;

/** `toolcall.narrative` (spec 06 EN-43). */
export interface NarrativeToolcallConfig {
  narrator?: string;
  replyer?: string;
  decoder?: string;
  maxNarrationTokens?: number;
  replyStyle?: string;
}

/**
 * Context engine variants, name → config block (spec 06 EN-3). Augment it to type your own variant and the
 * matching profile section: `declare module "koishi-plugin-ishiki" { interface ContextEngines { briefing: { filename: string } } }`.
 */
export interface ContextEngines {
  standard: StandardContextConfig;
  v3: V3ContextConfig;
  narrative: NarrativeContextConfig;
}

/** Wakeup engine variants, name → config block; augment it as `ContextEngines`. */
export interface WakeupEngines {
  standard: StandardWakeupConfig;
  v3: V3WakeupConfig;
  judge: JudgeWakeupConfig;
}

/** Toolcall engine variants, name → config block; augment it as `ContextEngines`. */
export interface ToolcallEngines {
  native: NativeToolcallConfig;
  hermes: TextProtocolToolcallConfig;
  "morph-xml": TextProtocolToolcallConfig;
  qwen3coder: TextProtocolToolcallConfig;
  "yaml-xml": TextProtocolToolcallConfig;
  v3: V3ToolcallConfig;
  narrative: NarrativeToolcallConfig;
}

/**
 * A profile's engine section (EN-3): the chosen variant plus any variant's block, passed whole to the
 * provider. `EngineConfig<Pick<ContextEngines, "briefing">>` is what the `briefing` provider receives.
 */
export type EngineConfig<M> = { engine: keyof M & string } & { [K in keyof M]?: M[K] };

/** The three engine families, in the order a runtime creates their instances. */
export type EngineFamily = "context" | "wakeup" | "toolcall";

/** The service name of a variant: `ishiki.engine.<family>.<name>` (EN-1). */
export function engineServiceName(family: EngineFamily, name: string): string {
  return `ishiki.engine.${family}.${name}`;
}
