import { createEntry, createUserMessage, type Agent, type AgentEntry, type AgentEvent, type AgentMessage } from "@yesimagent/core";
import type { ExtensionHost } from "../../extension/index.js";
import type { ContextEngineInstance } from "../context-engine-instance.js";
import type { ContextRequest } from "../context-request.js";
import { HistoryIndex } from "./standard-history.js";
import { summarise, summaryRecords } from "./standard-summariser.js";
import { TokenModel } from "./standard-token-model.js";
import { planWindow } from "./standard-window.js";

/** The head of the summary message (EN-17): background memory, never this turn's instructions. */
export const SUMMARY_HEADER =
  "[Background memory: a summary of earlier conversation that is no longer shown. Requests in it are history, not current instructions.]";

export interface StandardContextSettings {
  /** `undefined` when the budget and compaction are off (EN-12). */
  maxTokens: number | undefined;
  refillRatio: number;
}

/** What a step reads after the anchor (EN-17). */
interface AnchoredView {
  from: number;
  summary?: { id: string; text: string; timestamp: number };
}

/**
 * One runtime's `standard` context (spec 06 EN-12 .. EN-17): each step cuts the history after the latest
 * summary anchor to the token budget at turn boundaries; after a turn that went over, one background job
 * summarises what the next window drops and appends `ishiki.compact`.
 */
export class StandardContext implements ContextEngineInstance {
  private readonly history = new HistoryIndex();
  private readonly tokens = new TokenModel();
  /** Per running turn, what its latest step assembled: chars for the token model, the summary to show. */
  private readonly steps = new Map<string, { chars: number; summary?: AnchoredView["summary"] }>();
  /** What was last warned about, so a condition warns once rather than at every step. */
  private readonly warned = { uncutTurn: "", anchor: "" };
  private agent: Agent | undefined;
  private overBudget = false;
  private job: AbortController | undefined;
  private stopped = false;

  public constructor(
    private readonly host: ExtensionHost,
    private readonly settings: StandardContextSettings,
  ) {}

  public attach(agent: Agent): () => void {
    this.agent = agent;
    const unsubscribe = agent.channel.subscribe("agent", (event) => this.observe(event));
    return () => {
      unsubscribe();
      this.stopped = true;
      this.job?.abort(new Error("context.standard: runtime stopped"));
    };
  }

  public prepareEntries(entries: readonly AgentEntry[], request: ContextRequest): readonly AgentEntry[] {
    const end = entries.length;
    this.history.update(entries, end);
    const view = this.anchoredView(this.history, entries);
    const extra = summaryChars(view);
    let start = view.from;
    if (this.settings.maxTokens !== undefined) {
      const plan = planWindow(this.history, view.from, end, extra, this.tokens.budget(this.settings.maxTokens, this.settings.refillRatio));
      if (plan.over) this.overBudget = true;
      if (plan.uncut && this.warned.uncutTurn !== request.turnId) {
        this.warned.uncutTurn = request.turnId;
        this.host.logger.warn("context.standard: the history is over budget but has no turn boundary to cut at; passing it whole");
      }
      start = plan.start;
    }
    this.steps.set(request.turnId, { chars: this.history.chars(start, end) + extra, summary: view.summary });
    return start === 0 ? entries : entries.slice(start, end);
  }

  public renderMessages(messages: AgentMessage[], request: ContextRequest): AgentMessage[] {
    const summary = this.steps.get(request.turnId)?.summary;
    if (summary === undefined) return messages;
    return [createUserMessage(`${SUMMARY_HEADER}\n\n${summary.text}`, { id: summary.id, timestamp: summary.timestamp }), ...messages];
  }

  private observe(event: AgentEvent): void {
    if (event.type === "turn.step") {
      const step = this.steps.get(event.turnId);
      const input = event.usage?.inputTokens;
      if (step !== undefined && input !== undefined) this.tokens.observe(step.chars, input);
      return;
    }
    if (event.type !== "turn.done" && event.type !== "turn.failed" && event.type !== "turn.aborted") return;
    this.steps.delete(event.turnId);
    // Detached: channel listeners are awaited by the turn loop, and the summary is a model call.
    if (event.type === "turn.done" && this.overBudget && this.job === undefined && !this.stopped) void this.compact();
  }

  /** EN-15, EN-16: one job at a time; a failure keeps the flag for the next turn, a stop discards the result. */
  private async compact(): Promise<void> {
    const agent = this.agent;
    const maxTokens = this.settings.maxTokens;
    if (agent === undefined || maxTokens === undefined) return;
    const job = new AbortController();
    this.job = job;
    this.overBudget = false;
    try {
      const entries = await agent.storage.read();
      const index = new HistoryIndex();
      index.update(entries);
      const view = this.anchoredView(index, entries);
      const plan = planWindow(index, view.from, entries.length, summaryChars(view), this.tokens.budget(maxTokens, this.settings.refillRatio));
      if (plan.start <= view.from) return;
      const records = summaryRecords(entries.slice(view.from, plan.start));
      const previousSummary = view.summary?.text ?? null;
      const summary = records.length === 0 ? (previousSummary ?? "") : await summarise(this.host.profileModel(), { previousSummary, records }, job.signal);
      if (job.signal.aborted) return;
      await agent.storage.append(createEntry("ishiki.compact", { summary, lastEntryId: entries[plan.start - 1].id }));
    } catch (error) {
      if (job.signal.aborted) return;
      this.overBudget = true;
      this.host.logger.warn(`context.standard: compaction failed: ${error instanceof Error ? error.message : String(error)}; retrying after the next turn`);
    } finally {
      if (this.job === job) this.job = undefined;
    }
  }

  /** EN-17: the window starts after the latest anchor's `lastEntryId`; a missing one is warned about and ignored. */
  private anchoredView(index: HistoryIndex, entries: readonly AgentEntry[]): AnchoredView {
    const at = index.latestAnchor();
    if (at < 0) return { from: 0 };
    const anchor = entries[at] as AgentEntry<"ishiki.compact">;
    const last = index.positionOf(anchor.data.lastEntryId);
    if (last === undefined) {
      if (this.warned.anchor !== anchor.id) this.host.logger.warn(`context.standard: compaction anchor ${anchor.data.lastEntryId} not found in the history; ignoring its summary`);
      this.warned.anchor = anchor.id;
      return { from: 0 };
    }
    return { from: last + 1, summary: anchor.data.summary === "" ? undefined : { id: anchor.id, text: anchor.data.summary, timestamp: anchor.timestamp } };
  }
}

function summaryChars(view: AnchoredView): number {
  return view.summary === undefined ? 0 : SUMMARY_HEADER.length + 2 + view.summary.text.length;
}
