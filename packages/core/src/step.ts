import { streamText, type Experimental_ToolCallers, type ModelMessage, type ToolSet } from "ai";
import type { ActiveTurn } from "./active-turn.js";
import { isMessageEntry } from "./entry.js";
import { ToolConflictError } from "./errors.js";
import { abortError } from "./error-info.js";
import { createAssistantMessage, createToolMessage, type AgentMessage } from "./message.js";
import type { StepOptions, ToolCallers } from "./plugin.js";
import { projectMessages, repairToolResults } from "./projection.js";
import { wrapTools } from "./tool-execution.js";
import type { AgentStepResult } from "./turn.js";
import type { TurnContext } from "./turn-context.js";

/**
 * One step (AG-39, AG-40): init, step-0 work (incoming messages, instructions and tools), history through the
 * projection pipes, `prepareStep`, one model call whose stream is drained (tools run during the drain), and
 * the step's batch in one append. An aborted step persists nothing.
 */
export async function runStep(context: TurnContext, turn: ActiveTurn, stepNumber: number): Promise<AgentStepResult> {
  await context.ensureInit();
  if (stepNumber === 0) {
    turn.persisted.push(...(await context.persistMessages(turn.incoming, turn.id)));
    turn.incoming = [];
    await assemble(context, turn);
  }
  throwIfAborted(turn);

  const turnOptions = { turnId: turn.id, signal: turn.signal };
  const { messages, seenSeq } = await readHistory(context, turn);
  const initial: StepOptions = {
    ...turnOptions,
    stepNumber,
    instructions: turn.instructions,
    messages,
    tools: turn.tools,
    toolCallers: context.toolCallers,
    runtimeContext: turn.runtimeContext,
    toolsContext: turn.toolsContext,
    toolChoice: context.toolChoice,
    activeTools: context.activeTools,
    settings: context.settings,
  };
  const step = await context.hooks.pipe("prepareStep", initial);
  turn.runtimeContext = step.runtimeContext;
  turn.toolsContext = step.toolsContext;

  const tools = wrapTools(step.tools, { turnId: turn.id, signal: turn.signal, hooks: context.hooks, emit: context.emit });
  const result = streamText({
    ...step.settings,
    model: context.getModel(),
    instructions: step.instructions,
    messages: step.messages,
    // Stored system messages are history like any other (AG-52); the SDK refuses them by default, which would
    // fail every later turn of the channel.
    allowSystemInMessages: true,
    tools,
    ...(step.toolCallers === undefined ? {} : { experimental_toolCallers: sdkToolCallers(step.toolCallers, tools) }),
    ...(step.toolChoice === undefined ? {} : { toolChoice: step.toolChoice }),
    ...(step.activeTools === undefined ? {} : { activeTools: [...step.activeTools] }),
    runtimeContext: step.runtimeContext,
    // A loose ToolSet declares no tool context, so the SDK types the map as `never`; each tool still reads
    // its own entry at run time.
    toolsContext: step.toolsContext as never,
    abortSignal: turn.signal,
    maxRetries: 0,
    // The error part reaches the loop below, which fails the turn with one line; the SDK's default would print
    // the whole error object (headers, body, stack) to the console besides.
    onError: () => {},
  });

  // Draining the stream runs the tools. The SDK reports an ignored enforced toolChoice as a stream error.
  let toolCalls = 0;
  for await (const part of result.fullStream) {
    context.channel.publish("stream", { turnId: turn.id, stepNumber, part });
    if (part.type === "tool-call") toolCalls += 1;
    else if (part.type === "error") throw part.error;
  }
  throwIfAborted(turn);
  const [usage, finishReason, response] = await Promise.all([result.usage, result.finishReason, result.responseMessages]);
  throwIfAborted(turn);

  const batch: AgentMessage[] = response.map((message) =>
    message.role === "assistant"
      ? createAssistantMessage(message.content, { usage, finishReason, providerOptions: message.providerOptions })
      : createToolMessage(message.content, { providerOptions: message.providerOptions }),
  );
  const persisted = await context.persistMessages(batch, turn.id);
  turn.persisted.push(...persisted);
  return { messages: persisted, usage, finishReason, toolCalls, seenSeq };
}

/**
 * The step's view of history (AG-52, AG-54): entries → `transformEntries` → message entries →
 * `transformMessages` → projection → tool-result repair, with the highest `seq` it contains (AG-34).
 */
async function readHistory(context: TurnContext, turn: ActiveTurn): Promise<{ messages: ModelMessage[]; seenSeq: number }> {
  const { entries, length, seenSeq, offset } = context.stream.snapshot();
  const turnOptions = { turnId: turn.id, signal: turn.signal };
  const kept = await context.hooks.pipe("transformEntries", entries, { ...turnOptions, offset });
  // The live history may have grown while the pipes awaited: this step sees it only up to its snapshot.
  const bound = kept === entries ? length : kept.length;
  const messages: AgentMessage[] = [];
  for (let index = 0; index < bound; index += 1) {
    const entry = kept[index];
    if (isMessageEntry(entry)) messages.push(entry.data);
  }
  const transformed = await context.hooks.pipe("transformMessages", messages, turnOptions);
  const projected = await projectMessages(transformed, {
    project: (message) => context.hooks.first<[typeof message], ModelMessage[]>((plugin) => plugin.toModelMessages, message),
    dropped: (message) => context.unprojected(message),
  });
  const repaired = repairToolResults(projected);
  for (const call of repaired.repaired) await context.emit({ type: "tool.result_repaired", turnId: turn.id, ...call });
  if (repaired.orphans.length > 0) context.logger.debug(`tool results without their call left out of the request: ${repaired.orphans.join(", ")}`);
  return { messages: repaired.messages, seenSeq };
}

/** Step 0 assembly (AG-39): instructions joined by blank lines, tools merged with conflicts rejected. */
async function assemble(context: TurnContext, turn: ActiveTurn): Promise<void> {
  const parts = [context.instructions];
  for (const plugin of context.hooks.plugins) parts.push((await plugin.extendInstructions?.()) ?? undefined);
  const tools: ToolSet = { ...context.tools };
  for (const plugin of context.hooks.plugins) {
    const extra = await plugin.extendTools?.();
    if (!extra) continue;
    for (const [name, tool] of Object.entries(extra)) {
      if (Object.hasOwn(tools, name)) throw new ToolConflictError(name);
      tools[name] = tool;
    }
  }
  const text = parts.filter((part): part is string => typeof part === "string" && part.trim() !== "");
  turn.instructions = text.length === 0 ? undefined : text.join("\n\n");
  turn.tools = tools;
}

/** Our `"direct"` is the SDK's `AI_SDK_DIRECT_TOOL_CALL`; routes for tools absent from this step are dropped. */
function sdkToolCallers(callers: ToolCallers, tools: ToolSet): Experimental_ToolCallers<ToolSet> {
  const routes: Record<string, Array<string>> = {};
  for (const [name, list] of Object.entries(callers)) {
    if (!Object.hasOwn(tools, name)) continue;
    routes[name] = list.map((caller) => (caller === "direct" ? "AI_SDK_DIRECT_TOOL_CALL" : caller));
  }
  return routes as Experimental_ToolCallers<ToolSet>;
}

function throwIfAborted(turn: ActiveTurn): void {
  if (turn.signal.aborted) throw abortError(turn.abortReason);
}
