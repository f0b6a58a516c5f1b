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
      const runtimes = await Promise.all(streams.map(async (stream) => {
        seen.add(stream.path);
        return { id: stream.id, state: stateOf(stream), ...(await this.summary(stream, now)) };
      }));
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
    const summary = summarize(await this.reader.read(stream.path), day);
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
 * side requests, input plus output, counted as `ishiki.usage` and the daily budget count them (issue 22).
 */
export function summarize(entries: readonly AgentEntry[], since: number): StreamSummary {
  let tokensToday = 0;
  let lastTurn: RuntimeOverview["lastTurn"];
  for (const entry of entries) {
    if (entry.timestamp >= since) for (const { counts } of entryCalls(entry)) tokensToday += counts.input + counts.output;
    if (entry.type !== "event") continue;
    const event = entry.data;
    if (event.type === "turn.done") lastTurn = { outcome: "done", at: entry.timestamp };
    else if (event.type === "turn.failed") lastTurn = { outcome: "failed", at: entry.timestamp, error: `${event.error.name}: ${event.error.message}` };
    else if (event.type === "turn.aborted") lastTurn = { outcome: "aborted", at: entry.timestamp };
  }
  return { ...(lastTurn ? { lastTurn } : {}), tokensToday, facts: entries.length };
}
