/**
 * What a wakeup engine decided about one fact (or a timer), for `ishiki.why` and policy preview (issue 22).
 *
 * - `wake`: the engine opened a turn (or asked to, through the pending-hit rule, EN-25) for the fact.
 * - `held`: the hit waits (debounce, cooldown, the agent is busy); a later report says what became of it.
 * - `quiet`: no wake (no rule, mute, hourly cap, the judge said no, a failed judgement, ...).
 *
 * `rule` names what decided: `direct`, `atSelf`, `quoteSelf`, `keyword:<word>`, `debounce`, `cooldown`, `cap`,
 * `mute`, `willingness`, `judge`, `busy`, `none`, or a third-party engine's own word; `detail` says the numbers
 * (`score 63.2 > 55, p 0.33, draw 0.12`, `answer {...} → 0.71 ≥ 0.5`).
 */
export interface WakeupReport {
  outcome: "wake" | "held" | "quiet";
  rule: string;
  detail?: string;
  /** `platform:selfId/channelId` of the fact. */
  channel?: string;
  /** The fact's `seq` in the fact stream (AG-34). */
  seq?: number;
  messageId?: string;
}

/** A report as the runtime keeps it: stamped with the clock time and the engine's name. */
export interface WakeupDecision extends WakeupReport {
  at: number;
  engine: string;
}

/** Decisions a runtime keeps: enough for the last messages of a busy group, never written to events.jsonl. */
export const WAKEUP_DECISIONS_KEPT = 512;

/** The bounded ring of one runtime's wakeup decisions, oldest first. */
export class WakeupDecisionRing {
  private readonly items: WakeupDecision[] = [];

  public constructor(
    private readonly engine: string,
    private readonly now: () => number,
    private readonly capacity: number = WAKEUP_DECISIONS_KEPT,
  ) {}

  public push(report: WakeupReport): void {
    this.items.push({ at: this.now(), engine: this.engine, ...report });
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
  }

  /** The decisions kept, oldest first (a copy). */
  public list(): WakeupDecision[] {
    return this.items.slice();
  }
}
