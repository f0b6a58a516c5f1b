import type { LanguageModelUsage } from "ai";
import type { ActiveTurn } from "./active-turn.js";
import { isAbortError, toErrorInfo } from "./error-info.js";
import type { AgentErrorInfo, AgentTerminalEvent } from "./event.js";
import { runStep } from "./step.js";
import type { StepFinishDecision, TurnResult, TurnStatus } from "./turn.js";
import type { TurnContext } from "./turn-context.js";
import { addUsage } from "./usage.js";

/**
 * Runs one turn to its end (AG-37, AG-38, AG-41): `turn.start`; steps while the decision or the step's tool
 * calls say so, up to `maxSteps`, flushing joined messages after each step; then joined and deferred
 * messages until both are empty; seal; the terminal event; `onTurnFinish`. Never throws.
 */
export async function runTurn(context: TurnContext, turn: ActiveTurn): Promise<TurnResult> {
  let status: TurnStatus = "done";
  let failure: unknown;
  let steps = 0;
  let usage: LanguageModelUsage | undefined;
  let totalUsage: LanguageModelUsage | undefined;

  try {
    await context.emitLifecycle({ type: "turn.start", turnId: turn.id });
    for (let stepNumber = 0; stepNumber < context.maxSteps; stepNumber += 1) {
      throwIfAborted(turn);
      const result = await runStep(context, turn, stepNumber);
      steps += 1;
      usage = result.usage;
      totalUsage = addUsage(totalUsage, result.usage);
      await flush(context, turn, false);
      await context.emit({
        type: "turn.step",
        turnId: turn.id,
        stepNumber,
        ...(result.usage === undefined ? {} : { usage: result.usage }),
        ...(result.finishReason === undefined ? {} : { finishReason: result.finishReason }),
        seenSeq: result.seenSeq,
      });
      const decision = await context.hooks.observe<StepFinishDecision>("onStepFinish", { turnId: turn.id, stepNumber, result });
      await flush(context, turn, false);
      if (!(decision?.continue ?? result.toolCalls > 0)) break;
    }
    throwIfAborted(turn);
  } catch (error) {
    status = isAbortError(error) || turn.signal.aborted ? "aborted" : "failed";
    failure = error;
  }

  try {
    await flush(context, turn, true);
  } catch (error) {
    // The tail could not be stored: a turn that was done becomes failed; otherwise the first error stands.
    if (status === "done") {
      status = "failed";
      failure = error;
    } else context.logger.warn(`turn ${turn.id}: could not persist its tail: ${String(error)}`);
  }
  turn.accepting = false;

  const error = status === "failed" ? toErrorInfo(failure) : undefined;
  const reason = status === "aborted" ? (turn.abortReason ?? toErrorInfo(failure).message) : undefined;
  const terminal = terminalEvent(turn.id, status, { usage, totalUsage, steps, error, reason });
  if (status === "failed") context.logger.warn(`turn ${turn.id} failed: ${error?.name}: ${error?.message}`);
  try {
    await context.emitLifecycle(terminal);
  } catch (persistError) {
    // Consumers must still see the turn end, even when its event could not be stored.
    context.logger.warn(`turn ${turn.id}: could not store ${terminal.type}: ${String(persistError)}`);
    await context.emit({ type: "agent.error", source: "storage", message: `${terminal.type}: ${String(persistError)}` });
    await context.emit(terminal);
  }

  const result: TurnResult = {
    turnId: turn.id,
    status,
    messages: turn.persisted,
    steps,
    ...(usage === undefined ? {} : { usage }),
    ...(totalUsage === undefined ? {} : { totalUsage }),
    ...(error === undefined ? {} : { error }),
    ...(reason === undefined ? {} : { reason }),
  };
  await context.hooks.observe("onTurnFinish", result);
  return result;
}

/**
 * Persists joined messages (and, at the tail, deferred ones and any incoming a failed step 0 left behind)
 * until none are left, so messages sent while a flush is in flight are not stranded.
 */
async function flush(context: TurnContext, turn: ActiveTurn, tail: boolean): Promise<void> {
  for (;;) {
    const batch = tail ? [...turn.incoming.splice(0), ...turn.joined.splice(0), ...turn.deferred.splice(0)] : turn.joined.splice(0);
    if (batch.length === 0) return;
    turn.persisted.push(...(await context.persistMessages(batch, turn.id)));
  }
}

interface TerminalFields {
  usage: LanguageModelUsage | undefined;
  totalUsage: LanguageModelUsage | undefined;
  steps: number;
  error: AgentErrorInfo | undefined;
  reason: string | undefined;
}

function terminalEvent(turnId: string, status: TurnStatus, fields: TerminalFields): AgentTerminalEvent {
  if (status === "failed") return { type: "turn.failed", turnId, error: fields.error ?? { name: "Error", message: "unknown failure" } };
  if (status === "aborted") return { type: "turn.aborted", turnId, ...(fields.reason === undefined ? {} : { reason: fields.reason }) };
  return {
    type: "turn.done",
    turnId,
    ...(fields.usage === undefined ? {} : { usage: fields.usage }),
    ...(fields.totalUsage === undefined ? {} : { totalUsage: fields.totalUsage }),
    steps: fields.steps,
  };
}

function throwIfAborted(turn: ActiveTurn): void {
  if (turn.signal.aborted) throw turn.signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}
