import { Service } from "koishi";
import type { Awaitable, Context } from "koishi";
import type { ExtensionHost } from "../extension/index.js";
import type { ToolcallEngineInstance } from "./toolcall-engine-instance.js";
import { engineServiceName, type ToolcallEngines, type EngineConfig } from "./engine-maps.js";

/**
 * Base of a toolcall engine variant (spec 06 EN-1, EN-2): a Koishi service `ishiki.engine.toolcall.<name>`.
 * `[Service.invoke]` runs once per runtime at its creation and returns that runtime's instance.
 */
export abstract class ToolcallEngine<N extends keyof ToolcallEngines & string = keyof ToolcallEngines & string> extends Service {
  public readonly engineName: N;

  public static GetName(name: string): string {
    return engineServiceName("toolcall", name);
  }

  public constructor(ctx: Context, name: N) {
    super(ctx, ToolcallEngine.GetName(name));
    this.engineName = name;
    this.logger = ctx.logger(ToolcallEngine.GetName(name));
  }

  public abstract [Service.invoke](host: ExtensionHost, config: EngineConfig<Pick<ToolcallEngines, N>>): Awaitable<ToolcallEngineInstance>;
}
