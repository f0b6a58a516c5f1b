import { createEntry, type Agent, type AgentEntry, type AgentLogger, type AgentPlugin } from "@yesimagent/core";
import type { IshikiStepCall } from "../types/index.js";
import type { DailyBudget } from "./daily-budget.js";
import type { CallSink, ModelCall } from "./metered-model.js";
import { TURN_PURPOSE } from "./usage-facts.js";
import { countsOf } from "./usage-sum.js";

/** The requester, refined by what the caller said the call was for: `context:standard/compaction`. */
function purposeOf(requester: string, call: ModelCall): string {
  return call.detail === undefined ? requester : `${requester}/${call.detail}`;
}

/**
 * Where one runtime's model usage goes (issue 22). Calls of a turn step are collected and written onto the
 * step's assistant message (its `usage` is already there; the runtime adds the `model` that served it, or the
 * list of `calls` when a toolcall engine made several). Side requests (compaction, a judge, memory) are
 * appended as `ishiki.usage` facts with their purpose. Every call also counts against the profile's budget.
 */
export class UsageRecorder {
  private step: IshikiStepCall[] = [];
  private stopped = false;

  public constructor(
    private readonly agent: () => Agent | undefined,
    private readonly logger: AgentLogger,
    private readonly budget: DailyBudget | undefined,
  ) {}

  /** Calls made for the current step; `purpose` tells the turn model from a toolcall engine's own calls. */
  public stepSink(purpose: string = TURN_PURPOSE): CallSink {
    return (call) => {
      this.count(call);
      this.step.push({ model: call.model, purpose: purposeOf(purpose, call), usage: call.usage });
    };
  }

  /** Calls made outside a step by `purpose` (`context:standard`, `wakeup:judge`, `extension:memory`). */
  public sideSink(purpose: string): CallSink {
    return (call) => {
      this.count(call);
      const agent = this.agent();
      if (agent === undefined || this.stopped) {
        // One writer per events.jsonl (AG-10): after stop, the next runtime of this home may own the file.
        this.logger.debug(`usage of ${purpose} on ${call.model} after the runtime stopped: counted for the budget, not written`);
        return;
      }
      const turnId = agent.getActiveTurnId() ?? undefined;
      const entry = createEntry("ishiki.usage", { purpose: purposeOf(purpose, call), model: call.model, usage: call.usage }, turnId === undefined ? {} : { turnId });
      agent.storage.append(entry).catch((error: unknown) => this.logger.warn(`usage of ${purpose} not written: ${error instanceof Error ? error.message : String(error)}`));
    };
  }

  /** From now on side requests are only counted (the runtime is stopping). */
  public stop(): void {
    this.stopped = true;
  }

  /** The agent hooks: a step starts with no calls, and its persisted assistant message names what served it. */
  public plugin(): AgentPlugin {
    return {
      name: "ishiki.usage",
      prepareStep: () => {
        // A step aborted before its append leaves calls behind; they were counted for the budget already.
        this.step = [];
        return undefined;
      },
      onAppend: (entries) => this.annotate(entries),
    };
  }

  private count(call: ModelCall): void {
    this.budget?.record(call.model, countsOf(call.usage));
  }

  private annotate(entries: AgentEntry[]): AgentEntry[] | undefined {
    if (this.step.length === 0) return undefined;
    const index = entries.findIndex((entry) => entry.type === "message" && (entry as AgentEntry<"message">).data.role === "assistant");
    if (index < 0) return undefined;
    const calls = this.step;
    this.step = [];
    const entry = entries[index] as AgentEntry<"message">;
    const models = new Set(calls.map((call) => call.model));
    const extra = calls.length === 1 || (models.size === 1 && calls.every((call) => call.purpose === TURN_PURPOSE)) ? { model: calls[0].model } : { calls };
    const annotated = { ...entry, data: { ...entry.data, ...extra } } as AgentEntry;
    return entries.map((item, at) => (at === index ? annotated : item));
  }
}
