import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { Context, Logger } from "koishi";
import type { Gateway } from "@yesimagent/gateway";
import type { ResourceCenter } from "../resources/index.js";
import type { AgentRuntime } from "./agent-runtime.js";
import type { RuntimeDomain } from "./runtime-domain.js";

/**
 * What `[Service.invoke](host, config)` receives for one runtime (spec 07 XA-14). Every field is read-only.
 * Keep cross-runtime state on the service keyed by `root`, and close it on `fiber`'s `dispose`.
 */
export interface ExtensionHost {
  readonly profileId: string;
  /** `<profileId>/<platform>:<selfId>/<channelId>` or `<profileId>/main`. */
  readonly runtimeId: string;
  /** Absolute profile directory. */
  readonly root: string;
  /** Absolute runtime home; it exists before `invoke`. */
  readonly home: string;
  /** Absolute data directory. */
  readonly dataPath: string;
  /** The Koishi context of the profile activation, disposed on deactivation. */
  readonly fiber: Context;
  readonly domain: RuntimeDomain;
  /** The runtime's ResourceCenter: `resources.attach(handler)` registers a scheme for this runtime. */
  readonly resources: ResourceCenter;
  /** Koishi logger whose lines start with `[<runtimeId>]`. */
  readonly logger: Logger;
  readonly gateway: Gateway;
  /**
   * The profile's model with its failover settings, not wrapped by the toolcall engine: for side requests such
   * as summaries or judgements (spec 06 EN-15, EN-35, EN-43). Resolved on each call, so gateway changes apply.
   */
  profileModel(): LanguageModelV4;
  /** The runtime handle; reading it before the runtime is constructed throws: use `attach(handle)` instead. */
  readonly runtime: AgentRuntime;
}
