import type { Agent } from "@yesimagent/core";
import { bindWakeupEnvironment, realWakeupEnvironment, WakeupDecisionRing, type WakeupDecision, type WakeupEngineInstance, type WakeupReport, type WakeupEnvironment } from "../engines/index.js";
import { hasScheduledWork } from "../tools/index.js";
import { ChannelMutes } from "./channel-mutes.js";
import { mutedView } from "./muted-view.js";

/** The wakeup side of one runtime: its decisions, the owner's mutes, and the engine's detach. */
export interface WakeupAttachment {
  /** The bounded ring of decisions (issue 22), oldest first; never written to events.jsonl. */
  decisions(): WakeupDecision[];
  /** Adds a decision the runtime made around the engine (a wake the daily budget held back). */
  report(report: WakeupReport): void;
  readonly mutes: ChannelMutes;
  /** Whether the engine registered scheduled work on the view it was attached to (spec 08 KP-20). */
  hasScheduledWork(): boolean;
  detach(): void;
}

export interface AttachWakeupOptions {
  /** The engine's name, stamped on its decisions. */
  engine: string;
  /** The environment around the reports: the real clock when unset, a virtual one in a policy preview. */
  environment?(report: WakeupEnvironment["report"]): WakeupEnvironment;
  /** Decisions kept; `WAKEUP_DECISIONS_KEPT` when unset. */
  capacity?: number;
  /** Where the one debug line per message of a muted channel goes. */
  debug?(line: string): void;
}

/**
 * Attaches the wakeup engine to `agent` behind the owner's mutes, with an environment whose reports go to the
 * runtime's ring (issue 22).
 */
export function attachWakeup(agent: Agent, instance: WakeupEngineInstance, options: AttachWakeupOptions): WakeupAttachment {
  let ring: WakeupDecisionRing | undefined;
  const report: WakeupEnvironment["report"] = (decision) => ring?.push(decision);
  const bound = options.environment?.(report) ?? realWakeupEnvironment(report);
  ring = new WakeupDecisionRing(options.engine, bound.now, options.capacity);
  const mutes = new ChannelMutes(agent, bound.now);
  const view = mutedView(agent, mutes, report, options.debug ?? (() => {}));
  const unbind = bindWakeupEnvironment(view, bound);
  const detach = instance.attach(view);
  return {
    decisions: () => ring.list(),
    report,
    mutes,
    hasScheduledWork: () => hasScheduledWork(view),
    detach() {
      detach();
      unbind();
    },
  };
}
