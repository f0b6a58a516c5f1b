import { resolve } from "node:path";
import { Service } from "koishi";
import type { Context, Logger } from "koishi";
import { IshikiConfig } from "./config.js";
import { usage } from "./usage.js";

declare module "koishi" {
  interface Context {
    ishiki: IshikiService;
  }
}

/** The `ishiki` service: the kernel a bot author configures and extensions build on. */
export class IshikiService extends Service {
  static Config = IshikiConfig;
  static usage = usage;

  /** Absolute data directory (spec 00 OV-11). */
  readonly dataPath: string;
  override readonly logger: Logger;

  constructor(ctx: Context, config: IshikiConfig) {
    super(ctx, "ishiki", true);
    this.dataPath = resolve(ctx.baseDir, config.dataPath);
    this.logger = ctx.logger("ishiki");
  }

  protected override start(): void {
    this.logger.info("ready, data at %s", this.dataPath);
  }
}
