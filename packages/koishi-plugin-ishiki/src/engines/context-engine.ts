import { Service } from "koishi";
import type { Awaitable, Context } from "koishi";
import type { ExtensionHost } from "../extension/index.js";
import type { ContextEngineInstance } from "./context-engine-instance.js";
import { engineServiceName, type ContextEngines, type EngineConfig } from "./engine-maps.js";

/**
 * Base of a context engine variant (spec 06 EN-1, EN-2): a Koishi service `ishiki.engine.context.<name>`.
 * `[Service.invoke]` runs once per runtime at its creation and returns that runtime's instance.
 */
export abstract class ContextEngine<N extends keyof ContextEngines & string = keyof ContextEngines & string> extends Service {
  public readonly engineName: N;

  public static GetName(name: string): string {
    return engineServiceName("context", name);
  }

  public constructor(ctx: Context, name: N) {
    super(ctx, ContextEngine.GetName(name));
    this.engineName = name;
    this.logger = ctx.logger(ContextEngine.GetName(name));
  }

  public abstract [Service.invoke](host: ExtensionHost, config: EngineConfig<Pick<ContextEngines, N>>): Awaitable<ContextEngineInstance>;
}
