import type { Agent } from "@yesimagent/core";
import type { ResourceCenter } from "../resources/index.js";
import type { IshikiEvent } from "../types/index.js";
import type { RuntimeDomain } from "./runtime-domain.js";

/**
 * The handle of one runtime, given to `ExtensionInstance.attach` (spec 07 XA-15 .. XA-17). Available only once
 * the runtime is constructed: reading `host.runtime` inside `[Service.invoke]` throws.
 */
export interface AgentRuntime {
  /** `<profileId>/<platform>:<selfId>/<channelId>` or `<profileId>/main`. */
  readonly id: string;
  readonly profileId: string;
  readonly domain: RuntimeDomain;
  /** Absolute runtime home. */
  readonly home: string;
  readonly agent: Agent;
  readonly resources: ResourceCenter;
  /**
   * Pure ingestion (XA-16): media `src` become `asset://` URLs, then the event is submitted without asking for
   * a turn (it joins the running turn when busy). Resolves once submitted, not once persisted: watch
   * `message.appended` for the commit. It never opens a turn; waking is the wakeup engine's decision.
   */
  deliver(event: IshikiEvent): Promise<void>;
  /**
   * An explicit wake that bypasses the wakeup engine (XA-17): a blank or missing prompt becomes `Continue.`,
   * anything else is passed verbatim to `agent.continue`. Returns what `continue` returns.
   */
  wake(prompt?: string): string | undefined;
}
