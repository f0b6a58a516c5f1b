import type { Context, Session } from "koishi";
import { formatStamp, textContent } from "../../engines/shared/index.js";
import { UNTIL_UNMUTED } from "../../runtime/index.js";
import type { IshikiService } from "../service.js";
import { channelRuntime } from "./channel-runtime.js";
import { refusal } from "./authority.js";
import type { CommandSettings } from "./command-kernel.js";
import { explainChannel, type MessageFate, type TurnSummary } from "./why-report.js";
import { formatCost } from "./format.js";
import { costOf, pricesOf } from "../../usage/index.js";
import type { Gateway } from "@yesimagent/gateway";

const DEFAULT_COUNT = 5;
const MAX_COUNT = 20;
const SNIPPET_CHARS = 40;

/**
 * `ishiki.why [count]` (issue 22): why the bot did or did not answer the last messages of this channel, from the
 * wakeup engine's decisions (kept in memory, so only since the runtime started) and the turns in the fact stream.
 */
export function registerWhy(ctx: Context, ishiki: IshikiService, options: CommandSettings): () => void {
  const command = ctx.command("ishiki.why [count:posint]", { authority: options.authority }).action(async ({ session }, count) => {
    if (session === undefined) return;
    const refused = refusal(session, options);
    if (refused !== undefined) return refused;
    const found = await channelRuntime(ishiki, session);
    if (found === undefined) return session.text("commands.ishiki.messages.unclaimed");
    const { runtime, channel } = found;
    const entries = await runtime.agent.storage.read();
    const shown = Math.min(count ?? DEFAULT_COUNT, MAX_COUNT);
    const { messages, turns } = explainChannel(entries, runtime.wakeup.decisions(), channel, shown);
    if (messages.length === 0) return session.text(".empty");
    const lines = [session.text(".header", [messages.length, runtime.host.runtimeId])];
    const until = runtime.wakeup.mutes.mutedUntil(channel);
    if (until !== undefined) lines.push(until >= UNTIL_UNMUTED ? session.text(".muted-forever") : session.text(".muted", [new Date(until).toISOString()]));
    for (const fate of messages) lines.push(...describe(session, fate, turns, ishiki.gateway));
    return lines.join("\n");
  });
  return () => command.dispose();
}

/** A turn's estimated cost at its models' declared prices; undefined when none of its models declares prices. */
function turnCost(turn: TurnSummary, gateway: Gateway): number | undefined {
  let total: number | undefined;
  for (const call of turn.calls) {
    const cost = costOf(call.counts, pricesOf(gateway, call.model));
    if (cost !== undefined) total = (total ?? 0) + cost;
  }
  return total;
}

function describe(session: Session, fate: MessageFate, turns: Map<string, TurnSummary>, gateway: Gateway): string[] {
  const text = textContent(fate.fact.content).replace(/\s+/g, " ").trim();
  const snippet = text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS - 1)}…` : text;
  const lines = [session.text(".message", { id: fate.fact.messageId, time: formatStamp(fate.at), author: fate.fact.user.name || fate.fact.user.id, text: snippet })];
  if (fate.decisions.length === 0) lines.push(session.text(".no-decision"));
  for (const decision of fate.decisions) {
    lines.push(session.text(".decision", { engine: decision.engine, outcome: session.text(`.outcome-${decision.outcome}`), rule: decision.rule, detail: decision.detail === undefined ? "" : ` (${decision.detail})` }));
  }
  const turn = fate.turn === undefined ? undefined : turns.get(fate.turn.id);
  if (fate.turn === undefined || turn === undefined) {
    lines.push(session.text(".no-turn"));
    return lines;
  }
  const usage = turn.usage;
  lines.push(
    session.text(fate.turn.how === "woke" ? ".turn-woke" : ".turn-joined", {
      id: turn.id.slice(0, 8),
      steps: turn.steps,
      tools: turn.tools.length > 0 ? turn.tools.join(", ") : "—",
      input: usage?.inputTokens ?? "?",
      output: usage?.outputTokens ?? "?",
      cached: usage?.inputTokenDetails?.cacheReadTokens ?? 0,
    }),
  );
  const cost = turnCost(turn, gateway);
  if (cost !== undefined) lines.push(session.text(".turn-cost", [formatCost(cost)]));
  if (turn.failed !== undefined) lines.push(session.text(".turn-failed", [turn.failed]));
  return lines;
}
