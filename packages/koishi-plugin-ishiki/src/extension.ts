import type { Awaitable } from "koishi";
import type { ToolSet } from "ai";
import type { AgentRuntime } from "./extension/agent-runtime.js";

/**
 * What an extension contributes to one runtime (spec 07 XA-6 .. XA-9). Every member is optional.
 *
 * - `attach` runs once after the runtime is constructed; it may return a disposer (or a promise of one). A
 *   throw is logged as a warning and does not stop the runtime.
 * - `extendInstructions` and `extendTools` run at step 0 of every turn; the kernel caches nothing, so cache
 *   in the instance what must stay stable. A throw, or a tool name already taken, fails that turn.
 * - At runtime stop `stop()` runs first, then the attach disposer; clean timers and subscriptions there.
 */
export interface ExtensionInstance {
  attach?(handle: AgentRuntime): Awaitable<void | (() => void)>;
  extendInstructions?(): Awaitable<string>;
  extendTools?(): Awaitable<ToolSet>;
  stop?(): Awaitable<void>;
}
