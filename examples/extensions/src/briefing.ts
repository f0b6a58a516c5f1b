import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Service } from "koishi";
import type { Context } from "koishi";
import { ContextEngine } from "koishi-plugin-ishiki";
import type { ContextEngineInstance, ContextEngines, EngineConfig, ExtensionHost } from "koishi-plugin-ishiki";

export interface BriefingConfig {
  filename: string;
}

declare module "koishi-plugin-ishiki" {
  interface ContextEngines {
    briefing: BriefingConfig;
  }
}

export class BriefingContextEngine extends ContextEngine<"briefing"> {
  public constructor(ctx: Context) {
    super(ctx, "briefing");
  }

  public [Service.invoke](host: ExtensionHost, config: EngineConfig<Pick<ContextEngines, "briefing">>): ContextEngineInstance {
    const filename = resolve(host.root, config.briefing?.filename ?? "briefing.md");
    return {
      instructions: () => readFile(filename, "utf8"),
    };
  }
}

export default BriefingContextEngine;
