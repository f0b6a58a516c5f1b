import type { AgentEntry, AgentMessage } from "@yesimagent/core";
import { WakeupEngine, type EngineConfig, type WakeupDecision, type WakeupEnvironment } from "../engines/index.js";
import { channelKey } from "../engines/wakeup/channel-key.js";
import type { ExtensionHost } from "../extension/index.js";
import type { IshikiMessageCreated } from "../types/index.js";
import { SimulatedAgent } from "./simulated-agent.js";
import { VirtualClock } from "./virtual-clock.js";
import { attachWakeup } from "./wakeup-attach.js";
import { seededRandom } from "./seeded-random.js";

export interface WakeupPreviewRequest {
  /** The wakeup provider to try and its section `{ engine, <engine>: {...} }`, validated as at activation. */
  provider: WakeupEngine;
  section: EngineConfig<Record<string, unknown>>;
  /** The runtime's host; the provider is invoked with it once more, for the preview alone. */
  host: ExtensionHost;
  /** The runtime's stored stream, in append order (entry `i` has `seq` `i + 1`, AG-34). */
  entries: readonly AgentEntry[];
  /** `platform:selfId/channelId` of the channel to replay. */
  channel: string;
  /** Facts stored before this time (ms since the epoch) are left out. */
  since: number;
  /** Model calls the owner grants (the judge); 0 previews rules only. */
  modelCalls: number;
  /** Seed of the random source (the `v3` draw); the same seed gives the same preview. */
  seed?: number;
}

/** One replayed message: what the engine would have done, beside what happened. */
export interface PreviewMessage {
  seq: number;
  messageId: string;
  at: number;
  author: string;
  content: string;
  /** A preview turn opened while this was the newest fact. */
  wouldWake: boolean;
  /** A recorded turn started while this was the newest fact. */
  woke: boolean;
  decisions: WakeupDecision[];
}

export interface WakeupPreview {
  engine: string;
  channel: string;
  since: number;
  until: number;
  messages: PreviewMessage[];
  modelCallsUsed: number;
}

/** Timers fired after the last fact at most: engines' own timers end, a runaway one does not hang the preview. */
const MAX_TRAILING_TIMERS = 10_000;
/** Settling rounds per instant at most (turns, pending wakes, judgements). */
const MAX_SETTLE_ROUNDS = 1_000;

/**
 * Policy preview (issue 22): replays a channel's recorded `ishiki.message.created` facts through a wakeup engine
 * with other settings, on a virtual clock (each fact at the time it was stored, timers in due order), against a
 * simulated agent whose turns take no time and call no model. The owner's mutes replay from the recorded `state`
 * facts. Model calls (the judge) happen only within `modelCalls`. Nothing is written anywhere.
 */
export async function previewWakeup(request: WakeupPreviewRequest): Promise<WakeupPreview> {
  const facts = recordedFacts(request.entries, request.channel, request.since);
  const clock = new VirtualClock(facts[0]?.at ?? request.since);
  const agent = new SimulatedAgent(`${request.host.runtimeId}#preview`, () => clock.now());
  const random = seededRandom(request.seed ?? 1);
  const background = new Set<Promise<unknown>>();
  let modelCallsUsed = 0;
  const decisions: WakeupDecision[] = [];
  const environment = (report: WakeupEnvironment["report"]): WakeupEnvironment => ({
    simulated: true,
    now: () => clock.now(),
    setTimer: (ms, run, onError) => clock.setTimer(ms, run, onError),
    random,
    report,
    claimModelCall: () => (modelCallsUsed < request.modelCalls ? ((modelCallsUsed += 1), true) : false),
    background(task) {
      const tracked = task.catch(() => undefined).finally(() => background.delete(tracked));
      background.add(tracked);
    },
  });
  const instance = await request.provider[WakeupEngine.invoke](request.host, request.section as EngineConfig<never>);
  const attached = attachWakeup(agent, instance, { engine: request.section.engine, environment, capacity: Number.MAX_SAFE_INTEGER });

  const settle = async (): Promise<void> => {
    for (let round = 0; round < MAX_SETTLE_ROUNDS; round += 1) {
      // A macrotask turn lets every promise chain of the engine (pending wakes, judgements) run to its next wait.
      await new Promise((resolve) => setImmediate(resolve));
      if (background.size > 0) await Promise.all([...background]);
      else if (agent.hasQueuedTurn) await agent.runQueued();
      else return;
    }
  };
  const fireDue = async (until: number, limit = Number.POSITIVE_INFINITY): Promise<void> => {
    for (let fired = 0; fired < limit; fired += 1) {
      const timer = clock.takeDue(until);
      if (timer === undefined) return;
      try {
        timer.run();
      } catch (error) {
        timer.onError(error);
      }
      await settle();
    }
  };

  try {
    for (const fact of facts) {
      await fireDue(fact.at);
      clock.moveTo(fact.at);
      if (fact.mutes !== undefined) attached.mutes.load(fact.mutes);
      if (fact.message === undefined) continue;
      await agent.deliver(fact.message, fact.entryId, fact.seq);
      await settle();
    }
    await fireDue(Number.POSITIVE_INFINITY, MAX_TRAILING_TIMERS);
    for (const entry of attached.decisions()) decisions.push(entry);
  } finally {
    attached.detach();
    await agent.stop();
  }
  return {
    engine: request.section.engine,
    channel: request.channel,
    since: request.since,
    until: facts.at(-1)?.at ?? request.since,
    messages: compare(facts, agent.turns.map((turn) => turn.seenSeq), request.entries, decisions),
    modelCallsUsed,
  };
}

/** A recorded fact to replay: a message of the channel, or a `state` change of the owner's mutes. */
interface RecordedFact {
  seq: number;
  at: number;
  entryId: string;
  message?: AgentMessage & { role: "custom"; type: "ishiki.message.created"; data: IshikiMessageCreated };
  mutes?: Record<string, number>;
}

function recordedFacts(entries: readonly AgentEntry[], channel: string, since: number): RecordedFact[] {
  const facts: RecordedFact[] = [];
  entries.forEach((entry, index) => {
    if (entry.timestamp < since) return;
    const seq = index + 1;
    if (entry.type === "state") {
      const mutes = (entry.data as { ishikiMutes?: Record<string, number> }).ishikiMutes;
      facts.push({ seq, at: entry.timestamp, entryId: entry.id, mutes: mutes ?? {} });
      return;
    }
    if (entry.type !== "message" || entry.data.role !== "custom" || entry.data.type !== "ishiki.message.created") return;
    if (channelKey(entry.data.data) !== channel) return;
    facts.push({ seq, at: entry.timestamp, entryId: entry.id, message: entry.data as RecordedFact["message"] });
  });
  return facts;
}

/**
 * Side by side: a message "woke" when a turn started while it was the newest fact of the stream (recorded:
 * `turn.start` entries; preview: the simulated turns' `seenSeq`), the same rule on both sides.
 */
function compare(facts: readonly RecordedFact[], previewSeen: readonly number[], entries: readonly AgentEntry[], decisions: readonly WakeupDecision[]): PreviewMessage[] {
  const wouldWake = new Set(previewSeen);
  const woke = new Set<number>();
  let newest = 0;
  entries.forEach((entry, index) => {
    if (entry.type === "message" && entry.data.role === "custom" && entry.data.type === "ishiki.message.created") newest = index + 1;
    else if (entry.type === "event" && entry.data.type === "turn.start" && newest > 0) woke.add(newest);
  });
  const bySeq = new Map<number, WakeupDecision[]>();
  for (const decision of decisions) {
    if (decision.seq === undefined) continue;
    const list = bySeq.get(decision.seq) ?? [];
    list.push(decision);
    bySeq.set(decision.seq, list);
  }
  return facts.flatMap((fact) => {
    if (fact.message === undefined) return [];
    const data = fact.message.data;
    return [{ seq: fact.seq, messageId: data.messageId, at: fact.at, author: data.user.name || data.user.id, content: data.content, wouldWake: wouldWake.has(fact.seq), woke: woke.has(fact.seq), decisions: bySeq.get(fact.seq) ?? [] }];
  });
}

