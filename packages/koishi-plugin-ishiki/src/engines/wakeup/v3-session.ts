import type { Logger } from "koishi";
import type { Agent } from "@yesimagent/core";
import { PendingWake } from "../../tools/index.js";
import { matchKeyword, mentionsSelf, quotesSelf } from "../shared/index.js";
import type { V3WakeupOptions } from "./v3-block.js";
import { wakeupEnvironment } from "../wakeup-environment.js";
import { decayWillingness, raiseWillingness, wakeProbability } from "./v3-willingness.js";
import { channelKey } from "./channel-key.js";
import { createdFact } from "./created-fact.js";

/** The random source and clock of the `v3` engine; tests inject their own, a policy preview its virtual ones. */
export interface V3Chance {
  random(): number;
  now(): number;
}

interface Willingness {
  score: number;
  /** Start of the last whole second decay was applied to. */
  at: number;
}

/**
 * One runtime's willingness wakeup (spec 06 §3.2): per channel a score that each fact raises and time decays
 * lazily (no resident timer); a fact wakes with the score's probability; every `turn.done` charges each channel
 * seen `replyCost`. State lives only while attached. Each fact's score, probability and draw are reported.
 */
export function attachV3(agent: Agent, options: V3WakeupOptions, injected: V3Chance, logger: Logger): () => void {
  const environment = wakeupEnvironment(agent);
  const chance: V3Chance = environment.simulated ? environment : injected;
  const channels = new Map<string, Willingness>();
  const wake = new PendingWake(agent, () => agent.continue(), logger);
  const decayed = (key: string): Willingness => {
    const now = chance.now();
    const state = channels.get(key) ?? { score: 0, at: now };
    const seconds = Math.floor((now - state.at) / 1000);
    if (seconds > 0) {
      state.score = decayWillingness(state.score, seconds, options);
      state.at += seconds * 1000;
    }
    channels.set(key, state);
    return state;
  };
  const unsubscribe = agent.channel.subscribe("agent", (event) => {
    if (event.type === "turn.done") {
      for (const key of channels.keys()) {
        const state = decayed(key);
        state.score = Math.max(0, state.score - options.replyCost);
      }
      return;
    }
    const created = createdFact(event);
    if (created === undefined) return;
    const { fact, seq } = created;
    const state = decayed(channelKey(fact));
    const signals = { atMention: mentionsSelf(fact), isQuote: quotesSelf(fact), isDirectMessage: fact.isDirect, keyword: matchKeyword(fact, options.keywords) !== undefined };
    state.score = raiseWillingness(state.score, signals, options);
    const probability = wakeProbability(state.score, options);
    const draw = chance.random();
    logger.debug("willingness %s on message %s: p=%s", state.score.toFixed(2), fact.messageId, probability.toFixed(3));
    const wakes = draw < probability;
    const detail = `score ${state.score.toFixed(2)}${probability > 0 ? ` > ${options.probabilityThreshold}, p ${probability.toFixed(3)}, draw ${draw.toFixed(3)}` : ` ≤ threshold ${options.probabilityThreshold}`}`;
    environment.report({ outcome: wakes ? "wake" : "quiet", rule: "willingness", detail, channel: channelKey(fact), seq, messageId: fact.messageId });
    if (wakes) wake.hit(seq);
  });
  return () => {
    unsubscribe();
    wake.dispose();
    channels.clear();
  };
}
