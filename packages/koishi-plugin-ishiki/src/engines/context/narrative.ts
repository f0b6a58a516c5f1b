import type { Context } from "koishi";
import { z } from "zod";
import type { AgentEntry, AgentMessage } from "@yesimagent/core";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import { ContextEngine } from "../context-engine.js";
import type { ContextEngineInstance } from "../context-engine-instance.js";
import { contextRetention, tailRetention, type ContextRetention, type RetainingContext } from "../context-retention.js";
import type { ContextEngines, EngineConfig } from "../engine-maps.js";
import { validateWithZod } from "../shared/index.js";
import { renderNarrative } from "./narrative-render.js";

const positive = { error: "expected an integer >= 1" };

export const narrativeContextBlock = z.object({
  maxMessages: z.number({ error: "expected a number" }).int(positive).min(1, positive).default(60),
});

/** Messages that become story lines; only these count against `maxMessages`. */
function isStoryMessage(message: AgentMessage): boolean {
  if (message.role === "custom") return message.type === "ishiki.message.created" || message.type === "ishiki.message.deleted";
  return message.role !== "system";
}

/**
 * The window (spec 06 EN-21): the last `maxMessages` story messages and every later message; message entries
 * before the cut (with their attachment records and catalogs, which CT-34 restores) are left out, other
 * entries stay. Entries are never modified.
 */
export function narrativeWindow(entries: readonly AgentEntry[], maxMessages: number): readonly AgentEntry[] {
  const cut = narrativeCut(entries, maxMessages);
  if (cut <= 0) return entries;
  return entries.filter((entry, index) => index >= cut || entry.type !== "message");
}

/** The index of the oldest story message the window keeps, or -1 when it keeps every message. */
function narrativeCut(entries: readonly AgentEntry[], maxMessages: number): number {
  let counted = 0;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry.type !== "message" || !isStoryMessage(entry.data)) continue;
    counted += 1;
    if (counted === maxMessages) return index;
  }
  return -1;
}

/**
 * What memory must keep (issue 19): the window's messages. Non-message entries before the cut, which the
 * window passes on, never reach the model (only message entries are projected), so they need not stay.
 */
export const narrativeRetention = (maxMessages: number): ContextRetention =>
  tailRetention({ engine: "narrative", maxMessages }, (entries, offset) => offset + Math.max(0, narrativeCut(entries, maxMessages)));

/**
 * The `narrative` context engine (spec 06 §2.3): the history as one story message headed by the marker line
 * `[[ishiki:narrative v1]]`, which the `narrative` toolcall engine requires (EN-22); it works with any other
 * toolcall engine too, since the bot's earlier calls are told as prose rather than replayed.
 */
export class NarrativeContextEngine extends ContextEngine<"narrative"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "narrative");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("context.narrative", narrativeContextBlock, block);
  }

  public [ContextEngine.invoke](host: ExtensionHost, config: EngineConfig<Pick<ContextEngines, "narrative">>): RetainingContext {
    const { maxMessages } = narrativeContextBlock.parse(config.narrative ?? {});
    return {
      [contextRetention]: () => narrativeRetention(maxMessages),
      prepareEntries: (entries) => narrativeWindow(entries, maxMessages),
      renderMessages: (messages) => renderNarrative(messages, host.domain, Date.now()),
    };
  }
}
