import type { Context } from "koishi";
import { z } from "zod";
import type { Agent } from "../../agent/index.js";
import { PendingWake } from "../../tools/index.js";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import type { EngineConfig, WakeupEngines } from "../engine-maps.js";
import { validateWithZod } from "../shared/index.js";
import { WakeupEngine } from "../wakeup-engine.js";
import type { WakeupEngineInstance } from "../wakeup-engine-instance.js";
import { standardHit, type StandardHitRules } from "./standard-hit.js";

const flag = { error: "expected a boolean" };

const standardWakeupBlock = z.object({
  direct: z.boolean(flag).default(true),
  atSelf: z.boolean(flag).default(true),
  quoteSelf: z.boolean(flag).default(true),
  keywords: z.array(z.string({ error: "expected a string" }), { error: "expected a list of strings" }).default([]),
});

/**
 * The default wakeup engine (spec 06 §3.1): a fact that hits a rule wakes the agent, through the pending-hit
 * rule while a turn runs (EN-25). Deletions never wake.
 */
export class StandardWakeupEngine extends WakeupEngine<"standard"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "standard");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("wakeup.standard", standardWakeupBlock, block);
  }

  public [WakeupEngine.invoke](host: ExtensionHost, config: EngineConfig<Pick<WakeupEngines, "standard">>): WakeupEngineInstance {
    const rules = standardWakeupBlock.parse(config.standard ?? {}) satisfies StandardHitRules;
    return { attach: (agent) => attachStandard(agent, rules, host) };
  }
}

function attachStandard(agent: Agent, rules: StandardHitRules, host: ExtensionHost): () => void {
  const wake = new PendingWake(agent, () => agent.continue(), host.logger);
  const unsubscribe = agent.channel.subscribe("agent", (event) => {
    if (event.type !== "message.appended" || event.message.role !== "custom" || event.message.type !== "ishiki.message.created") return;
    const hit = standardHit(event.message.data, rules);
    if (hit === undefined) return;
    host.logger.debug("wake hit %s on message %s", hit, event.message.data.messageId);
    wake.hit(event.seq);
  });
  return () => {
    unsubscribe();
    wake.dispose();
  };
}
