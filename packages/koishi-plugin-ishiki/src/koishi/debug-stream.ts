import type { LanguageModelUsage, TextStreamPart, ToolSet } from "ai";
import type { Logger } from "koishi";
import type { Runtime } from "../runtime/index.js";

const PREFIX = "[ishiki:debug]";

/**
 * `debugStream` (spec 08 KP-6). From the agent's `stream` channel, live: each text, reasoning and tool-input
 * delta (JSON-quoted, so one delta is one line) and one line per other part. From its `agent` channel: after
 * each step `turn.step #<n> usage(in/out/total[/cached][/reasoning]) finish=<reason> elapsed=<ms>ms`,
 * `tool.done <name> <ms>ms`, and `turn.failed` at warn. Returns the unsubscribe.
 */
export function attachDebugStream(runtime: Runtime, logger: Logger): () => void {
  let stepStart = Date.now();
  const toolStart = new Map<string, number>();
  const toolInputs = new Map<string, string>();
  const stopStream = runtime.agent.channel.subscribe("stream", ({ part }) => {
    if (part.type === "tool-input-start") toolInputs.set(part.id, part.toolName);
    logger.info(`${PREFIX} ${partLine(part, toolInputs)}`);
    if (part.type === "tool-input-end") toolInputs.delete(part.id);
  });
  const stopEvents = runtime.agent.channel.subscribe("agent", (event) => {
    const now = Date.now();
    if (event.type === "turn.start") stepStart = now;
    else if (event.type === "turn.step") {
      logger.info(`${PREFIX} turn.step #${event.stepNumber} usage(${usageText(event.usage)}) finish=${event.finishReason ?? "unknown"} elapsed=${now - stepStart}ms`);
      stepStart = now;
    } else if (event.type === "tool.start") toolStart.set(event.toolCallId ?? event.toolName, now);
    else if (event.type === "tool.done") {
      const key = event.toolCallId ?? event.toolName;
      logger.info(`${PREFIX} tool.done ${event.toolName} ${now - (toolStart.get(key) ?? now)}ms`);
      toolStart.delete(key);
    } else if (event.type === "turn.failed") logger.warn(`${PREFIX} turn.failed ${event.error.name}: ${event.error.message}`);
  });
  return () => {
    stopStream();
    stopEvents();
  };
}

/** One line per stream part; tool outputs and raw chunks are named, not printed, to keep the line short. */
function partLine(part: TextStreamPart<ToolSet>, toolInputs: ReadonlyMap<string, string>): string {
  switch (part.type) {
    case "text-delta":
    case "reasoning-delta":
      return `${part.type} ${JSON.stringify(part.text)}`;
    case "tool-input-delta":
      return `tool-input-delta ${toolInputs.get(part.id) ?? part.id} ${JSON.stringify(part.delta)}`;
    case "tool-input-start":
    case "tool-call":
    case "tool-result":
    case "tool-error":
      return `${part.type} ${part.toolName}`;
    case "finish-step":
    case "finish":
      return `${part.type} ${part.finishReason}`;
    case "error":
      return `error ${part.error instanceof Error ? part.error.message : String(part.error)}`;
    default:
      return part.type;
  }
}

function usageText(usage: LanguageModelUsage | undefined): string {
  if (usage === undefined) return "?";
  const parts: string[] = [usage.inputTokens, usage.outputTokens, usage.totalTokens].map((value) => String(value ?? "?"));
  const cached = usage.inputTokenDetails?.cacheReadTokens;
  const reasoning = usage.outputTokenDetails?.reasoningTokens;
  if (cached) parts.push(`${cached}`);
  if (reasoning) parts.push(`${reasoning}`);
  return parts.join("/");
}
