import type { Context } from "koishi";
import { z } from "zod";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import { ContextEngine } from "../context-engine.js";
import type { ContextEngineInstance } from "../context-engine-instance.js";
import type { ContextEngines, EngineConfig } from "../engine-maps.js";
import { validateWithZod } from "../shared/index.js";
import { StandardContext } from "./standard-instance.js";

const ratio = { error: "expected a ratio in (0, 1]" };

/** `Infinity` and `NaN` are numbers here: a non-finite `maxTokens` is how a profile turns the budget off (EN-12). */
const standardContextBlock = z.object({
  maxTokens: z.custom<number>((value) => typeof value === "number", { error: "expected a number" }).default(32_000),
  refillRatio: z.number({ error: "expected a number" }).gt(0, ratio).max(1, ratio).default(0.8),
});

/**
 * The default context engine (spec 06 §2.1): the history after the latest summary anchor, cut to a token
 * budget at turn boundaries, compacted into `ishiki.compact` summaries after turns that went over. The
 * kernel's default fact rendering then turns facts into user messages (EN-10).
 */
export class StandardContextEngine extends ContextEngine<"standard"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "standard");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("context.standard", standardContextBlock, block);
  }

  public [ContextEngine.invoke](host: ExtensionHost, config: EngineConfig<Pick<ContextEngines, "standard">>): ContextEngineInstance {
    const { maxTokens, refillRatio } = standardContextBlock.parse(config.standard ?? {});
    const enabled = Number.isFinite(maxTokens) && maxTokens > 0;
    if (!enabled) host.logger.warn(`context.standard.maxTokens: ${maxTokens} turns the token budget and compaction off`);
    return new StandardContext(host, { maxTokens: enabled ? maxTokens : undefined, refillRatio });
  }
}
