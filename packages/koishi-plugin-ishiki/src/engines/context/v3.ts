import type { Context } from "koishi";
import { z } from "zod";
import type { AgentEntry, AgentMessage } from "@yesimagent/core";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import { ContextEngine } from "../context-engine.js";
import { contextRetention, tailRetention, type RetainingContext } from "../context-retention.js";
import type { EngineConfig, ContextEngines } from "../engine-maps.js";
import { validateWithZod } from "../shared/index.js";
import { readMemoryBlocks, renderMemoryBlocks } from "./v3-memory.js";
import { v3Window, v3WindowStart } from "./v3-window.js";
import { renderWorldState } from "./v3-world-state.js";

const v3ContextBlock = z.object({
  maxMessages: z.number({ error: "expected a number" }).int({ error: "expected an integer" }).min(1, { error: "expected at least 1" }).default(50),
  keepFullTurnCount: z.number({ error: "expected a number" }).int({ error: "expected an integer" }).min(0, { error: "expected 0 or more" }).default(2),
  memoryBlocks: z.boolean({ error: "expected true or false" }).default(true),
});

/**
 * The v3 context engine (spec 06 §2.2): a message window (EN-18), the world-state message (EN-19) and memory
 * blocks from `<root>/memory` in the instructions (EN-20), re-read every turn. It makes no platform calls,
 * writes nothing and runs no background task.
 */
export class V3ContextEngine extends ContextEngine<"v3"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "v3");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("context.v3", v3ContextBlock, block);
  }

  public [ContextEngine.invoke](host: ExtensionHost, config: EngineConfig<Pick<ContextEngines, "v3">>): RetainingContext {
    const settings = v3ContextBlock.parse(config.v3 ?? {});
    const reported = new Set<string>();
    return {
      [contextRetention]: () => tailRetention({ engine: "v3", settings }, (entries, offset) => offset + v3WindowStart(entries, settings)),
      prepareEntries: (entries: readonly AgentEntry[]) => v3Window(entries, settings),
      renderMessages: (messages: AgentMessage[]) => renderWorldState(messages, host.domain),
      instructions: async () => {
        if (!settings.memoryBlocks) return undefined;
        const { blocks, skipped } = await readMemoryBlocks(host.root);
        for (const reason of skipped) {
          // Instructions are read every turn: say each problem once per runtime.
          if (reported.has(reason)) continue;
          reported.add(reason);
          host.logger.warn(`context.v3: ${reason}`);
        }
        return renderMemoryBlocks(blocks);
      },
    };
  }
}
