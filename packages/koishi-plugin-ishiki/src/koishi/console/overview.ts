import type { AgentEntry } from "@yesimagent/core";
import { entryCalls, utcDayStart } from "../../usage/index.js";
import { describeClaims, type ProfileActivation } from "../profile-activation.js";
import type { ConsoleOverview, RuntimeOverview } from "./contract.js";
import type { FactReader } from "./fact-reader.js";
import { runtimeStreams, type RuntimeStream } from "./runtime-streams.js";

type StreamSummary = Pick<RuntimeOverview, "lastTurn" | "tokensToday" | "facts">;

/**
 * The page's overview: every profile with its state and runtimes. A stream's summary is kept per file version
 * and UTC day, so an overview of idle runtimes reads no file again.
 */
export class OverviewBuilder {
  private readonly summaries = new Map<string, { key: string; summary: StreamSummary }>();

  public constructor(private readonly reader: FactReader) {}

  public async build(activations: ProfileActivation[], now = Date.now()): Promise<ConsoleOverview> {
    const seen = new Set<string>();
    const profiles = await Promise.all(activations.map(async (activation) => {
      const streams = await runtimeStreams(activation);
      // One stream at a time: a first overview of many channels must not read them all at once.
      const runtimes: RuntimeOverview[] = [];
      for (const stream of streams) {
        seen.add(stream.path);
        runtimes.push({ id: stream.id, state: stateOf(stream), ...(await this.summary(stream, now)) });
      }
      const failure = activation.failureReason;
      return {
        id: activation.profile.id,
        state: activation.status,
        missing: activation.status === "waiting" ? activation.missingServices() : [],
        ...(failure === undefined ? {} : { failure }),
        model: activation.profile.model,
        claims: describeClaims(activation.profile),
        runtimes,
      };
    }));
    for (const path of this.summaries.keys()) if (!seen.has(path)) this.summaries.delete(path);
    return { profiles, at: now };
  }

  private async summary(stream: RuntimeStream, now: number): Promise<StreamSummary> {
    const version = await this.reader.version(stream.path);
    if (version === undefined) return { tokensToday: 0, facts: 0 };
    const day = utcDayStart(now);
    const key = `${version}@${day}`;
    const cached = this.summaries.get(stream.path);
    if (cached?.key === key) return cached.summary;
    const fold = new SummaryFold(day);
    await this.reader.scan(stream.path, (entry) => fold.add(entry));
    const summary = fold.result();
    this.summaries.set(stream.path, { key, summary });
    return summary;
  }
}

function stateOf(stream: RuntimeStream): RuntimeOverview["state"] {
  if (stream.live === undefined) return "stopped";
  if (stream.live === "starting") return "starting";
  return stream.live.agent.isIdle() ? "idle" : "running";
}

/**
 * The last turn's end, and the tokens of every model call since `since` (the UTC day's start): turn steps and
 * side requests, input plus output, counted as `ishiki.usage` and the daily budget count them (issue 22). Folded
 * one entry at a time, so a stream is summarised without holding it.
 */
class SummaryFold {
  private tokensToday = 0;
  private facts = 0;
  private lastTurn: RuntimeOverview["lastTurn"];

  public constructor(private readonly since: number) {}

  public add(entry: AgentEntry): void {
    this.facts += 1;
    if (entry.timestamp >= this.since) for (const { counts } of entryCalls(entry)) this.tokensToday += counts.input + counts.output;
    if (entry.type !== "event") return;
    const event = entry.data;
    if (event.type === "turn.done") this.lastTurn = { outcome: "done", at: entry.timestamp };
    else if (event.type === "turn.failed") this.lastTurn = { outcome: "failed", at: entry.timestamp, error: `${event.error.name}: ${event.error.message}` };
    else if (event.type === "turn.aborted") this.lastTurn = { outcome: "aborted", at: entry.timestamp };
  }

  public result(): StreamSummary {
    return { ...(this.lastTurn ? { lastTurn: this.lastTurn } : {}), tokensToday: this.tokensToday, facts: this.facts };
  }
}

/** The summary of a stream already in memory (the fold over it). */
export function summarize(entries: Iterable<AgentEntry>, since: number): StreamSummary {
  const fold = new SummaryFold(since);
  for (const entry of entries) fold.add(entry);
  return fold.result();
}
