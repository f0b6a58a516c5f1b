import { createEntry, createUserMessage, type Agent, type AgentEntry, type AgentEvent, type AgentMessage } from "@yesimagent/core";
import type { ExtensionHost } from "../../extension/index.js";
import type { ContextEngineInstance } from "../context-engine-instance.js";
import type { ContextRequest } from "../context-request.js";
import { contextRetention, type ContextRetention, type RetainingContext } from "../context-retention.js";
import { droppedRecords, type HeldTail } from "./standard-dropped.js";
import { HistoryIndex } from "./standard-history.js";
import { RecordBudget, summarise, summaryRecords, type SummaryRecord } from "./standard-summariser.js";
import { TokenModel, widestBudget } from "./standard-token-model.js";
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
 * summary anchor to the token budget at cut points; after a turn that went over, one background job
 * summarises what the next window drops and appends `ishiki.compact`.
 *
 * With the runtime's retention (issue 19) the index is fed entry by entry at stream positions and keeps only
 * what the widest possible window needs; what lies below it (compaction records, an anchor's target) is read
 * from disk when asked for. Without it, each step indexes the array it receives, as before.
 */
export class StandardContext implements ContextEngineInstance, RetainingContext {
  private readonly history = new HistoryIndex();
  private observing = false;
  /** Observed: the retained tail the last step received, where a compaction takes its records from. */
  private tail: HeldTail | undefined;
  /** Anchor entry id → stream position of its `lastEntryId` (-1: not in the stream), found outside the index. */
  private readonly anchorTargets = new Map<string, number>();
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

  public [contextRetention](): ContextRetention {
    this.observing = true;
    return {
      observe: (entry, position) => this.history.add(entry, position),
      retainFrom: () => this.retainFrom(),
      reset: () => {
        this.history.reset();
        this.anchorTargets.clear();
      },
      save: () => ({ settings: JSON.stringify(this.settings), index: this.history.save(), anchorTargets: [...this.anchorTargets] }),
      restore: (saved) => {
        const { settings, index, anchorTargets } = (saved ?? {}) as { settings?: unknown; index?: unknown; anchorTargets?: unknown };
        if (settings !== JSON.stringify(this.settings) || !Array.isArray(anchorTargets) || !this.history.restore(index)) return false;
        for (const [id, position] of anchorTargets as Array<[string, number]>) this.anchorTargets.set(id, position);
        return true;
      },
    };
  }

  public attach(agent: Agent): () => void {
    this.agent = agent;
    const unsubscribe = agent.channel.subscribe("agent", (event) => this.observe(event));
    return () => {
      unsubscribe();
      this.stopped = true;
      this.job?.abort(new Error("context.standard: runtime stopped"));
    };
  }

  public async prepareEntries(entries: readonly AgentEntry[], request: ContextRequest): Promise<readonly AgentEntry[]> {
    const offset = this.observing ? (request.offset ?? 0) : 0;
    const end = offset + entries.length;
    if (this.observing) this.tail = { entries, offset };
    else this.history.update(entries, end);
    const view = await this.anchoredView();
    const extra = summaryChars(view);
    let start = view.from;
    if (this.settings.maxTokens !== undefined) {
      const plan = planWindow(this.history, view.from, end, extra, this.tokens.budget(this.settings.maxTokens, this.settings.refillRatio));
      if (plan.over) this.overBudget = true;
      if (plan.uncut && this.warned.uncutTurn !== request.turnId) {
        this.warned.uncutTurn = request.turnId;
        this.host.logger.warn("context.standard: the history is over budget but has no point to cut at (one turn holds it all); passing it whole");
      }
      start = plan.start;
    }
    // The retention keeps the widest window any budget can plan, so this holds; if it ever did not, the step
    // sees what memory has rather than failing.
    start = Math.max(start, offset);
    this.steps.set(request.turnId, { chars: this.history.chars(start, end) + extra, summary: view.summary });
    return start === offset ? entries : entries.slice(start - offset, end - offset);
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
      const cut = this.observing ? await this.observedCut(agent, maxTokens) : await this.readCut(agent, maxTokens);
      if (cut === undefined) return;
      const { records, lastEntry, previousSummary } = cut;
      const summary = records.length === 0 ? (previousSummary ?? "") : await summarise(this.host.profileModel(), { previousSummary, records }, job.signal);
      if (job.signal.aborted) return;
      const anchor = createEntry("ishiki.compact", { summary, lastEntryId: lastEntry.id });
      this.anchorTargets.set(anchor.id, lastEntry.position);
      await agent.storage.append(anchor);
    } catch (error) {
      if (job.signal.aborted) return;
      this.overBudget = true;
      this.host.logger.warn(`context.standard: compaction failed: ${error instanceof Error ? error.message : String(error)}; retrying after the next turn`);
    } finally {
      if (this.job === job) this.job = undefined;
    }
  }

  /** The next window's cut over the whole stream read from storage (no retention). */
  private async readCut(agent: Agent, maxTokens: number): Promise<CompactionCut | undefined> {
    const entries = await agent.storage.read();
    const index = new HistoryIndex();
    index.update(entries);
    const view = await this.anchoredView(index);
    const budget = this.tokens.budget(maxTokens, this.settings.refillRatio);
    const plan = planWindow(index, view.from, entries.length, summaryChars(view), budget);
    if (plan.start <= view.from) return undefined;
    const records = new RecordBudget(budget.ceiling);
    records.push(summaryRecords(entries.slice(view.from, plan.start)));
    return { records: records.take(), lastEntry: { id: entries[plan.start - 1].id, position: plan.start - 1 }, previousSummary: view.summary?.text ?? null };
  }

  /** The next window's cut from the observed index; the dropped records come from the tail, or from disk below it. */
  private async observedCut(agent: Agent, maxTokens: number): Promise<CompactionCut | undefined> {
    const end = this.history.end;
    const view = await this.anchoredView();
    const budget = this.tokens.budget(maxTokens, this.settings.refillRatio);
    const plan = planWindow(this.history, view.from, end, summaryChars(view), budget);
    if (plan.start <= view.from) return undefined;
    const { records, lastEntry } = await droppedRecords(this.tail, view.from, plan.start, budget.ceiling, (visit) => streamEntries(agent, visit));
    return { records, lastEntry, previousSummary: view.summary?.text ?? null };
  }

  /**
   * EN-17: the window starts after the latest anchor's `lastEntryId`; a missing one is warned about and ignored.
   * Observed, an anchor whose target lies below the index is looked up on disk once.
   */
  private async anchoredView(index = this.history): Promise<AnchoredView> {
    const latest = index.latestAnchor();
    if (latest === undefined) return { from: 0 };
    const anchor = latest.entry;
    let last = index.positionOf(anchor.data.lastEntryId) ?? this.anchorTargets.get(anchor.id);
    if (last === undefined && index === this.history && this.observing && this.agent !== undefined) {
      last = await findPosition(this.agent, anchor.data.lastEntryId, latest.position);
      this.anchorTargets.set(anchor.id, last);
    }
    if (last === undefined || last < 0) {
      if (this.warned.anchor !== anchor.id) this.host.logger.warn(`context.standard: compaction anchor ${anchor.data.lastEntryId} not found in the history; ignoring its summary`);
      this.warned.anchor = anchor.id;
      return { from: 0 };
    }
    return { from: last + 1, summary: anchor.data.summary === "" ? undefined : { id: anchor.id, text: anchor.data.summary, timestamp: anchor.timestamp } };
  }

  /**
   * What memory must keep (issue 19): the window the widest budget plans, which starts no later than any real
   * one. An anchor whose target is not indexed counts from the index's floor: a window cut there already was
   * over every ceiling.
   */
  private retainFrom(): number {
    const end = this.history.end;
    const latest = this.history.latestAnchor();
    let from = 0;
    if (latest !== undefined) {
      const last = this.history.positionOf(latest.entry.data.lastEntryId) ?? this.anchorTargets.get(latest.entry.id);
      from = last === undefined ? this.history.floor : last + 1;
    }
    const floor = this.settings.maxTokens === undefined ? from : planWindow(this.history, from, end, 0, widestBudget(this.settings.maxTokens)).start;
    this.history.forget(floor);
    return floor;
  }
}

interface CompactionCut {
  records: SummaryRecord[];
  lastEntry: { id: string; position: number };
  previousSummary: string | null;
}

/** Every stored entry in order, streamed when the storage can. */
async function streamEntries(agent: Agent, visit: (entry: AgentEntry) => void): Promise<void> {
  if (agent.storage.scan) return agent.storage.scan(visit);
  for (const entry of await agent.storage.read()) visit(entry);
}

/** The stream position of the entry `id` before `before`, or -1. */
async function findPosition(agent: Agent, id: string, before: number): Promise<number> {
  let found = -1;
  let position = 0;
  await streamEntries(agent, (entry) => {
    if (position < before && entry.id === id) found = position;
    position += 1;
  });
  return found;
}

function summaryChars(view: AnchoredView): number {
  return view.summary === undefined ? 0 : SUMMARY_HEADER.length + 2 + view.summary.text.length;
}
