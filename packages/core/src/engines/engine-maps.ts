/** `context.standard` (spec 06 EN-12); budget and compaction use it. */
export interface StandardContextConfig {
  maxTokens?: number;
  refillRatio?: number;
}

/** `wakeup.standard` hit rules (spec 06 EN-26). */
export interface StandardWakeupConfig {
  direct?: boolean;
  atSelf?: boolean;
  quoteSelf?: boolean;
  keywords?: string[];
}

/** `toolcall.native` takes no settings. */
export type NativeToolcallConfig = Record<string, never>;

/**
 * Context engine variants, name → config block (spec 06 EN-3). Augment it to type your own variant and the
 * matching profile section: `declare module "koishi-plugin-ishiki" { interface ContextEngines { briefing: { filename: string } } }`.
 */
export interface ContextEngines {
  standard: StandardContextConfig;
}

/** Wakeup engine variants, name → config block; augment it as `ContextEngines`. */
export interface WakeupEngines {
  standard: StandardWakeupConfig;
}

/** Toolcall engine variants, name → config block; augment it as `ContextEngines`. */
export interface ToolcallEngines {
  native: NativeToolcallConfig;
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
