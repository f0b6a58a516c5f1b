import type { Context } from "koishi";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import type { EngineConfig, WakeupEngines } from "../engine-maps.js";
import { validateWithZod } from "../shared/index.js";
import { WakeupEngine } from "../wakeup-engine.js";
import type { WakeupEngineInstance } from "../wakeup-engine-instance.js";
import { standardWakeupBlock } from "./standard-block.js";
import { attachStandard } from "./standard-session.js";

/**
 * The default wakeup engine (spec 06 §3.1): a fact that hits a rule wakes the agent after the channel's
 * debounce, within the cooldown and hourly cap, unless its channel is muted; through the pending-hit rule while
 * a turn runs (EN-25). Deletions never wake.
 */
export class StandardWakeupEngine extends WakeupEngine<"standard"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "standard");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("wakeup.standard", standardWakeupBlock, block);
  }

  public [WakeupEngine.invoke](host: ExtensionHost, config: EngineConfig<Pick<WakeupEngines, "standard">>): WakeupEngineInstance {
    const options = standardWakeupBlock.parse(config.standard ?? {});
    return { attach: (agent) => attachStandard(agent, options, host.logger) };
  }
}
