import type { LanguageModelUsage } from "ai";
import type { Logger } from "koishi";
import type { Runtime } from "../runtime/index.js";

const PREFIX = "[ishiki:debug]";

/**
 * `debugStream` (spec 08 KP-6) from the agent's events: after each step `turn.step #<n> usage(in/out/total
 * [/cached][/reasoning]) finish=<reason> elapsed=<ms>ms`, `tool.done <name> <ms>ms`, and `turn.failed` at warn.
 * Returns the unsubscribe.
 */
export function attachDebugStream(runtime: Runtime, logger: Logger): () => void {
  let stepStart = Date.now();
  const toolStart = new Map<string, number>();
  return runtime.agent.channel.subscribe("agent", (event) => {
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
