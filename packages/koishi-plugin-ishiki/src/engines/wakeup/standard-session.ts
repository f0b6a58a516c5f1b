import type { Logger } from "koishi";
import type { Agent } from "@yesimagent/core";
import { PendingWake, registerScheduledWork } from "../../tools/index.js";
import type { StandardWakeupOptions } from "./standard-block.js";
import { TurnBudget } from "./standard-budget.js";
import { WakeDebounce } from "./standard-debounce.js";
import { StandardMutes } from "./standard-mute.js";
import { channelKey } from "./channel-key.js";
import { createdFact } from "./created-fact.js";
import { errorText } from "./wake-timers.js";

/**
 * One runtime's standard wakeup (spec 06 §3.1): fact → mute and hit rules → per-channel debounce → pending-hit
 * rule (EN-25) → cooldown and hourly cap → `agent.continue()`. Returns the disposer of EN-23.
 */
export function attachStandard(agent: Agent, options: StandardWakeupOptions, logger: Logger): () => void {
  const onError = (error: unknown) => logger.warn(`wakeup failed: ${errorText(error)}`);
  const mutes = new StandardMutes(options);
  // The newest seq any step has read: a hit at or below it was already seen, so waking for it is redundant.
  let seenSeq = -1;
  let requested = -1;
  function request(seq: number): void {
    if (seq <= seenSeq) return;
    requested = Math.max(requested, seq);
    wake.hit(seq);
  }
  const budget = new TurnBudget(agent, { cooldownMs: options.cooldownMs, maxTurnsPerHour: options.maxTurnsPerHour, now: Date.now, debug: (message) => logger.debug(message), onError }, () => request(requested));
  const wake = new PendingWake(agent, () => budget.open(), logger);
  const debounce = new WakeDebounce(options.debounceMs, options.debounceMaxMs, (seq) => request(seq), onError);
  const unsubscribe = agent.channel.subscribe("agent", (event) => {
    if (event.type === "turn.step") seenSeq = Math.max(seenSeq, event.seenSeq);
    const created = createdFact(event);
    if (created === undefined) return;
    const { fact, seq } = created;
    const key = channelKey(fact);
    debounce.fact(key);
    const verdict = mutes.judge(key, fact, Date.now());
    if (verdict.kind === "muted") logger.info(`channel ${key} muted until ${new Date(verdict.until).toISOString()}`);
    if (verdict.kind !== "hit") return;
    logger.debug("wake hit %s on message %s", verdict.rule, fact.messageId);
    debounce.hit(key, seq);
  });
  // Idle eviction would lose a debounced hit, a postponed wake or a mute (spec 08 KP-20).
  const unregister = registerScheduledWork(agent, () => debounce.waiting || budget.postponing || mutes.active(Date.now()));
  return () => {
    unregister();
    unsubscribe();
    debounce.dispose();
    budget.dispose();
    wake.dispose();
    mutes.clear();
  };
}
