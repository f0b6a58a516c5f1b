import { Service } from "koishi";
import type { Awaitable, Context } from "koishi";
import type { ExtensionHost } from "../extension/index.js";
import type { WakeupEngineInstance } from "./wakeup-engine-instance.js";
import { engineServiceName, type WakeupEngines, type EngineConfig } from "./engine-maps.js";

/**
 * Base of a wakeup engine variant (spec 06 EN-1, EN-2): a Koishi service `ishiki.engine.wakeup.<name>`.
 * `[Service.invoke]` runs once per runtime at its creation and returns that runtime's instance.
 */
export abstract class WakeupEngine<N extends keyof WakeupEngines & string = keyof WakeupEngines & string> extends Service {
  public readonly engineName: N;

  public static GetName(name: string): string {
    return engineServiceName("wakeup", name);
  }

  public constructor(ctx: Context, name: N) {
    super(ctx, WakeupEngine.GetName(name));
    this.engineName = name;
    this.logger = ctx.logger(WakeupEngine.GetName(name));
  }

  public abstract [Service.invoke](host: ExtensionHost, config: EngineConfig<Pick<WakeupEngines, N>>): Awaitable<WakeupEngineInstance>;
}
