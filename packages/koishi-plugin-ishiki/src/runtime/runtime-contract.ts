import type { OutboundPort, SendMessageToolOptions } from "../tools/index.js";
import type { ResourceCenter } from "../resources/index.js";
import type { Gateway } from "@yesimagent/gateway";
import type { AgentRuntime, Extension, ExtensionHost, RuntimeDomain } from "../extension/index.js";
import type { ContextEngine, ToolcallEngine, WakeupEngine } from "../engines/index.js";
import type { ResolvedProfile } from "../profile/index.js";
import type { WakeupAttachment } from "./wakeup-attach.js";
import type { DailyBudget } from "../usage/index.js";

/** An enabled extension's provider with its validated config, in `extends` order. */
export interface ExtensionProvider {
  name: string;
  service: Extension;
  config: unknown;
}

/** The services a profile activation resolved (spec 07 XA-21); the runtime invokes each once. */
export interface RuntimeProviders {
  context: ContextEngine;
  wakeup: WakeupEngine;
  toolcall: ToolcallEngine;
  extensions: readonly ExtensionProvider[];
}

/** Everything one runtime is built from; the engine sections of `profile` are already validated. */
export interface RuntimeOptions {
  profile: ResolvedProfile;
  domain: RuntimeDomain;
  /** Absolute profile directory. */
  root: string;
  dataPath: string;
  fiber: ExtensionHost["fiber"];
  gateway: Gateway;
  /** The profile logger; the runtime prefixes its lines with `[<runtimeId>]` through `prefixLogger`. */
  logger: ExtensionHost["logger"];
  prefixLogger(logger: ExtensionHost["logger"], prefix: string): ExtensionHost["logger"];
  providers: RuntimeProviders;
  outbound: OutboundPort;
  /** Per-message steps of `send_message` over this runtime's center: media resolution, typing pause (spec 08 KP-31, KP-33). */
  sendMessage?(center: ResourceCenter): Pick<SendMessageToolOptions, "prepare" | "pause">;
  /** The profile's daily budget, shared by its runtimes (issue 22); none without `budget`. */
  budget?: DailyBudget;
  /** Steps per turn; the agent's default when unset. */
  maxSteps?: number;
}

/** A running runtime: the handle extensions see, plus what its owner needs. */
export interface Runtime extends AgentRuntime {
  readonly logger: ExtensionHost["logger"];
  /** The host its providers were invoked with; a policy preview invokes the wakeup provider again with it. */
  readonly host: ExtensionHost;
  /**
   * Whether work is scheduled that idle eviction would lose (spec 08 KP-20): an armed `wait`, or what an engine
   * registered with `registerScheduledWork` (a debounced hit, a postponed wake, a mute).
   */
  hasScheduledWork(): boolean;
  /** The wakeup engine's decisions and the owner's channel mutes (issue 22). */
  readonly wakeup: WakeupAttachment;
  /** Stops everything in the order of spec 08 KP-19; safe to call twice. */
  stop(): Promise<void>;
}
