import type { Logger } from "koishi";
import type { Agent } from "@yesimagent/core";
import { PendingWake, registerScheduledWork } from "../../tools/index.js";
import { wakeupEnvironment } from "../wakeup-environment.js";
import type { StandardWakeupOptions } from "./standard-block.js";
import { TurnBudget, type BudgetOutcome } from "./standard-budget.js";
import { WakeDebounce } from "./standard-debounce.js";
import { StandardMutes, type StandardVerdict } from "./standard-mute.js";
import { channelKey } from "./channel-key.js";
import { createdFact } from "./created-fact.js";
import { errorText } from "./wake-timers.js";

const MAX_TRACKED_HITS = 1024;

/** A hit on its way to a wake: what the decision reports name. */
interface Hit {
  rule: string;
  channel: string;
  messageId: string;
}

/**
 * One runtime's standard wakeup (spec 06 §3.1): fact → mute and hit rules → per-channel debounce → pending-hit
 * rule (EN-25) → cooldown and hourly cap → `agent.continue()`. Every step reports its decision to the wakeup
 * environment (issue 22). Returns the disposer of EN-23.
 */
export function attachStandard(agent: Agent, options: StandardWakeupOptions, logger: Logger): () => void {
  const environment = wakeupEnvironment(agent);
  const { report, now } = environment;
  const onError = (error: unknown) => logger.warn(`wakeup failed: ${errorText(error)}`);
  const mutes = new StandardMutes(options);
  // Hits not yet woken for, by seq; cleared once a wake, a drop or a step covers them.
  const hits = new Map<number, Hit>();
  const settle = (upTo: number) => {
    for (const seq of hits.keys()) if (seq <= upTo) hits.delete(seq);
  };
  // The newest seq any step has read: a hit at or below it was already seen, so waking for it is redundant.
  let seenSeq = -1;
  let requested = -1;
  function request(seq: number): void {
    const hit = hits.get(seq);
    if (seq <= seenSeq) {
      if (hit !== undefined) report({ outcome: "quiet", rule: "seen", detail: `${hit.rule}: a step already read the message`, channel: hit.channel, seq, messageId: hit.messageId });
      settle(seq);
      return;
    }
    requested = Math.max(requested, seq);
    if (!agent.isIdle() && hit !== undefined) report({ outcome: "held", rule: "busy", detail: `${hit.rule}: waits for the running turn (EN-25)`, channel: hit.channel, seq, messageId: hit.messageId });
    wake.hit(seq);
  }
  const opened = (outcome: BudgetOutcome): void => {
    const seq = requested;
    const hit = hits.get(seq);
    const about = hit === undefined ? { seq } : { channel: hit.channel, seq, messageId: hit.messageId };
    const rule = hit?.rule ?? "hit";
    if (outcome.kind === "opened") report({ outcome: "wake", rule, ...about });
    else if (outcome.kind === "cap") report({ outcome: "quiet", rule: "cap", detail: `${rule}: ${outcome.limit} turns in the last hour (maxTurnsPerHour)`, ...about });
    else report({ outcome: "held", rule: "cooldown", detail: `${rule}: postponed ${outcome.waitMs} ms by cooldownMs`, ...about });
    if (outcome.kind !== "cooldown") settle(seq);
  };
  const budget = new TurnBudget(
    agent,
    { cooldownMs: options.cooldownMs, maxTurnsPerHour: options.maxTurnsPerHour, now, setTimer: environment.setTimer, debug: (message) => logger.debug(message), onError },
    () => request(requested),
  );
  const wake = new PendingWake(agent, () => opened(budget.open()), logger);
  const debounce = new WakeDebounce(options.debounceMs, options.debounceMaxMs, (seq) => request(seq), onError, environment.setTimer);
  const unsubscribe = agent.channel.subscribe("agent", (event) => {
    if (event.type === "turn.step") seenSeq = Math.max(seenSeq, event.seenSeq);
    const created = createdFact(event);
    if (created === undefined) return;
    const { fact, seq } = created;
    const key = channelKey(fact);
    debounce.fact(key);
    const verdict = mutes.judge(key, fact, now());
    const about = { channel: key, seq, messageId: fact.messageId };
    if (verdict.kind !== "hit") {
      if (verdict.kind === "muted") logger.info(`channel ${key} muted until ${new Date(verdict.until).toISOString()}`);
      report({ ...quietReport(verdict), ...about });
      return;
    }
    logger.debug("wake hit %s on message %s", verdict.rule, fact.messageId);
    hits.set(seq, { rule: verdict.rule, channel: key, messageId: fact.messageId });
    // Hits a step read while the agent was busy are never requested; keep the map bounded all the same.
    if (hits.size > MAX_TRACKED_HITS) hits.delete(hits.keys().next().value as number);
    if (options.debounceMs > 0) report({ outcome: "held", rule: "debounce", detail: `${verdict.rule}: waits ${options.debounceMs} ms of quiet${options.debounceMaxMs > 0 ? `, at most ${options.debounceMaxMs} ms` : ""}`, ...about });
    debounce.hit(key, seq);
  });
  // Idle eviction would lose a debounced hit, a postponed wake or a mute (spec 08 KP-20).
  const unregister = registerScheduledWork(agent, () => debounce.waiting || budget.postponing || mutes.active(now()));
  return () => {
    unregister();
    unsubscribe();
    debounce.dispose();
    budget.dispose();
    wake.dispose();
    mutes.clear();
    hits.clear();
  };
}

/** The report of a fact that does not hit: no rule, an ignored user, a keyword mute or a muted channel. */
function quietReport(verdict: Exclude<StandardVerdict, { kind: "hit" }>): { outcome: "quiet"; rule: string; detail?: string } {
  if (verdict.kind === "muted") return { outcome: "quiet", rule: "mute", detail: `muteKeywords: channel muted until ${new Date(verdict.until).toISOString()}` };
  if (verdict.reason === "ignored user") return { outcome: "quiet", rule: "ignoreUsers" };
  if (verdict.reason === "channel muted") return { outcome: "quiet", rule: "mute", detail: "muted by muteKeywords; only an unmute keyword wakes" };
  return { outcome: "quiet", rule: "none", detail: "no rule matched (direct, atSelf, quoteSelf, keywords)" };
}
