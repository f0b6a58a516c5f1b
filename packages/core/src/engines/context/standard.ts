import type { Context } from "koishi";
import { z } from "zod";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import { ContextEngine } from "../context-engine.js";
import type { ContextEngineInstance } from "../context-engine-instance.js";
import { validateWithZod } from "../shared/index.js";

const number = { error: "expected a number" };

const standardContextBlock = z.object({
  maxTokens: z.number(number).default(32_000),
  refillRatio: z.number(number).gt(0, { error: "expected a ratio in (0, 1]" }).max(1, { error: "expected a ratio in (0, 1]" }).default(0.8),
});

/**
 * The default context engine (spec 06 §2.1). It passes the history through; the kernel's default fact
 * rendering then turns facts into user messages (EN-10).
 */
export class StandardContextEngine extends ContextEngine<"standard"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "standard");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("context.standard", standardContextBlock, block);
  }

  public [ContextEngine.invoke](): ContextEngineInstance {
    return {};
  }
}
