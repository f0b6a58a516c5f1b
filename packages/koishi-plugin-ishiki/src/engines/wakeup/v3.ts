import type { Context } from "koishi";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import type { EngineConfig, WakeupEngines } from "../engine-maps.js";
import { validateWithZod } from "../shared/index.js";
import { WakeupEngine } from "../wakeup-engine.js";
import type { WakeupEngineInstance } from "../wakeup-engine-instance.js";
import { v3WakeupBlock } from "./v3-block.js";
import { attachV3 } from "./v3-session.js";

/**
 * The `v3` willingness wakeup engine (spec 06 §3.2). Override `random()` and `now()` in a subclass to control
 * the draw and the clock (tests, simulations); the profile block stays as EN-31.
 */
export class V3WakeupEngine extends WakeupEngine<"v3"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "v3");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("wakeup.v3", v3WakeupBlock, block);
  }

  public [WakeupEngine.invoke](host: ExtensionHost, config: EngineConfig<Pick<WakeupEngines, "v3">>): WakeupEngineInstance {
    const options = v3WakeupBlock.parse(config.v3 ?? {});
    const chance = { random: () => this.random(), now: () => this.now() };
    return { attach: (agent) => attachV3(agent, options, chance, host.logger) };
  }

  /** A number in [0, 1); a fact wakes when it is below the wake probability. */
  protected random(): number {
    return Math.random();
  }

  /** Milliseconds since the epoch, for decay. */
  protected now(): number {
    return Date.now();
  }
}
