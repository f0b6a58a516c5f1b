import type { Awaitable } from "koishi";
import type { Agent, AgentEntry, AgentMessage } from "@yesimagent/core";
import type { ContextRequest } from "./context-request.js";

/**
 * What a context engine does for one runtime (spec 06 EN-6 .. EN-8); every member is optional.
 *
 * Per step: `prepareEntries` → messages → `renderMessages` → default rendering of the facts still left as
 * custom messages → attachment projection → tool-result repair. `instructions()` runs at step 0 and cannot
 * see this turn's entries. Never modify entries (append instead); keep `ishiki.attachment` and
 * `ishiki.tools.catalog` messages inside the window you keep.
 */
export interface ContextEngineInstance {
  /** Called once at runtime creation; the disposer runs at stop. */
  attach?(agent: Agent): () => void;
  prepareEntries?(entries: readonly AgentEntry[], request: ContextRequest): Awaitable<readonly AgentEntry[]>;
  renderMessages?(messages: AgentMessage[], request: ContextRequest): Awaitable<AgentMessage[]>;
  instructions?(): Awaitable<string | undefined>;
}
