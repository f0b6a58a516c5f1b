import { Service } from "koishi";
import type { Context } from "koishi";
import { ToolcallEngine, ToolcallEngineInstance } from "koishi-plugin-ishiki";
import type { EngineConfig, ExtensionHost, LanguageModelV4CallOptions, LanguageModelV4Middleware, ToolcallEngines } from "koishi-plugin-ishiki";

export interface GroundingConfig {
  instruction: string;
}

declare module "koishi-plugin-ishiki" {
  interface ToolcallEngines {
    grounding: GroundingConfig;
  }
}

class GroundingInstance extends ToolcallEngineInstance {
  public constructor(private readonly instruction: string) {
    super();
  }

  protected middleware(): LanguageModelV4Middleware {
    return {
      specificationVersion: "v4",
      transformParams: async ({ params }): Promise<LanguageModelV4CallOptions> => ({
        ...params,
        prompt: [{ role: "system", content: this.instruction }, ...params.prompt],
      }),
    };
  }
}

export class GroundingToolcallEngine extends ToolcallEngine<"grounding"> {
  public constructor(ctx: Context) {
    super(ctx, "grounding");
  }

  public [Service.invoke](_host: ExtensionHost, config: EngineConfig<Pick<ToolcallEngines, "grounding">>): ToolcallEngineInstance {
    return new GroundingInstance(config.grounding?.instruction ?? "Cite a resource URL for every factual claim.");
  }
}

export default GroundingToolcallEngine;
