import { generateText, Output } from "ai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { Logger } from "koishi";
import type { Agent, AgentEntry, AgentEvent } from "@yesimagent/core";
import type { RuntimeDomain } from "../../extension/index.js";
import { PendingWake } from "../../tools/index.js";
import { wakeupEnvironment } from "../wakeup-environment.js";
import type { JudgeWakeupOptions } from "./judge-block.js";
import { judgeAnswer, judgePrompt, judgeSystem, judgeWakes } from "./judge-prompt.js";
import { JudgeWindows } from "./judge-window.js";
import { channelKey } from "./channel-key.js";
import { createdFact } from "./created-fact.js";
import { standardHit } from "./standard-hit.js";
import { errorText } from "./wake-timers.js";

export interface JudgeSessionOptions {
  options: JudgeWakeupOptions;
  domain: RuntimeDomain;
  /** Resolved per judgement, so gateway changes apply. */
  model(): LanguageModelV4;
  logger: Logger;
  /**
   * Windows the runtime's history observer feeds (issue 19): they already hold the stream read at the agent's
   * start (or restored from its checkpoint) and record each append themselves, so the session neither reads the
   * stream nor records appended messages. Absent (a third-party context engine, a policy preview): the
   * session seeds its own windows from storage.
   */
  observed?: JudgeWindows;
}

/**
 * One runtime's LLM-judge wakeup (spec 06 §3.3): rule hits wake at once; other facts, unless the bot spoke in
 * the channel within `cooldownMs`, go to the judge, one judgement per channel at a time (facts meanwhile cause
 * one re-run on the newest window). Failures never wake. The windows are seeded from storage. Every verdict is
 * reported with the judge's answer; a preview without model budget reports the facts the judge would have seen.
 */
export function attachJudge(agent: Agent, session: JudgeSessionOptions): () => void {
  const { options, logger } = session;
  const environment = wakeupEnvironment(agent);
  const { now, report } = environment;
  const observed = session.observed !== undefined;
  const windows = session.observed ?? new JudgeWindows(options.historyMessages, session.domain);
  const disposed = new AbortController();
  const wake = new PendingWake(agent, () => agent.continue(), logger);
  let seenSeq = -1;
  let seeded = observed;
  const early: AgentEvent[] = [];

  const judge = async (key: string): Promise<void> => {
    const channel = windows.get(key);
    channel.running = true;
    try {
      do {
        channel.rerun = false;
        const seq = channel.seq;
        const about = { channel: key, seq, ...(channel.messageId === undefined ? {} : { messageId: channel.messageId }) };
        if (!environment.claimModelCall()) {
          report({ outcome: "quiet", rule: "judge", detail: "not asked: the preview's model-call budget is spent", ...about });
          continue;
        }
        const prompt = judgePrompt(channel, options, now());
        const started = Date.now();
        try {
          const result = await generateText({
            model: session.model(),
            system: judgeSystem,
            prompt,
            output: Output.object({ schema: judgeAnswer }),
            maxRetries: 0,
            // Labels the call in ishiki.usage (issue 22): `wakeup:judge/judgement`.
            providerOptions: { ishiki: { purpose: "judgement" } },
            abortSignal: AbortSignal.any([disposed.signal, AbortSignal.timeout(options.timeoutMs)]),
          });
          const answer = result.output;
          const wakes = judgeWakes(answer, options.threshold);
          logger.debug(`judge ${key}: ${JSON.stringify(answer)} → ${wakes ? "wake" : "stay quiet"} (${Date.now() - started} ms)`);
          const score = Math.sqrt(Math.max(answer.addressed, answer.interested) * (1 - answer.others));
          report({ outcome: wakes ? "wake" : "quiet", rule: "judge", detail: `answer ${JSON.stringify(answer)} → ${score.toFixed(2)} ${wakes ? "≥" : "<"} threshold ${options.threshold}`, ...about });
          // A step that already read the fact makes the wake redundant (the agent may have woken meanwhile).
          if (wakes && !disposed.signal.aborted && seq > seenSeq) wake.hit(seq);
        } catch (error) {
          if (disposed.signal.aborted) return;
          logger.debug(`judge ${key}: no wake, ${errorText(error)} (${Date.now() - started} ms)`);
          report({ outcome: "quiet", rule: "judge", detail: `judgement failed: ${errorText(error)}`, ...about });
        }
      } while (channel.rerun && !disposed.signal.aborted);
    } finally {
      channel.running = false;
    }
  };

  const onEvent = (event: AgentEvent, stored: boolean): void => {
    if (event.type !== "message.appended") return;
    if (!stored && !observed) windows.record(event.message, now());
    const created = createdFact(event);
    if (created === undefined) return;
    const { fact, seq } = created;
    const key = channelKey(fact);
    const channel = windows.get(key);
    if (seq >= channel.seq) {
      channel.seq = seq;
      channel.messageId = fact.messageId;
    }
    const about = { channel: key, seq, messageId: fact.messageId };
    const rule = standardHit(fact, options.rules);
    if (rule !== undefined) {
      logger.debug("wake hit %s on message %s", rule, fact.messageId);
      report({ outcome: "wake", rule, ...about });
      wake.hit(seq);
      return;
    }
    if (channel.lastSpokeAt !== undefined && now() - channel.lastSpokeAt < options.cooldownMs) {
      report({ outcome: "quiet", rule: "cooldown", detail: `the bot spoke here ${Math.round((now() - channel.lastSpokeAt) / 1000)} s ago (cooldownMs ${options.cooldownMs})`, ...about });
      return;
    }
    if (channel.running) {
      channel.rerun = true;
      report({ outcome: "held", rule: "judge", detail: "a judgement of this channel is running; it runs once more on the newest window", ...about });
      return;
    }
    environment.background(judge(key));
  };

  const unsubscribe = agent.channel.subscribe("agent", (event) => {
    if (event.type === "turn.step") seenSeq = Math.max(seenSeq, event.seenSeq);
    if (seeded) onEvent(event, false);
    else if (event.type === "message.appended") early.push(event);
  });
  // An early event whose seq is within the entries read was stored before the read reached it, so it is not
  // counted twice.
  if (!observed) {
    void seedWindows(agent, windows, logger).then((stored) => {
      if (disposed.signal.aborted) return;
      seeded = true;
      for (const event of early.splice(0)) onEvent(event, event.type === "message.appended" && event.seq <= stored);
    });
  }

  return () => {
    disposed.abort();
    unsubscribe();
    wake.dispose();
    // Observed windows belong to the runtime's history until its stop saved them.
    if (!observed) windows.clear();
    early.length = 0;
  };
}

/**
 * Streamed from disk (issue 19): the windows keep their last lines, never the stream. Resolves to the number of
 * entries read (0 after a failure, which is logged).
 */
function seedWindows(agent: Agent, windows: JudgeWindows, logger: Logger): Promise<number> {
  let read = 0;
  return streamStored(agent, (entry) => {
    read += 1;
    windows.seed(entry);
  }).then(
    () => read,
    (error: unknown) => {
      logger.warn(`judge window seeding failed: ${errorText(error)}`);
      return 0;
    },
  );
}

/** Every stored entry in order, streamed when the storage can. */
async function streamStored(agent: Agent, visit: (entry: AgentEntry) => void): Promise<void> {
  if (agent.storage.scan) return agent.storage.scan(visit);
  for (const entry of await agent.storage.read()) visit(entry);
}
