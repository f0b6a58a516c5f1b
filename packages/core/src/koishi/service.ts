import { resolve } from "node:path";
import { Service } from "koishi";
import type { Context, Logger } from "koishi";
import { createGateway, type Gateway } from "../gateway/index.js";
import type { RuntimeDomain } from "../extension/index.js";
import { resolveProfile } from "../profile/index.js";
import type { Runtime } from "../runtime/index.js";
import type { OutboundPort } from "../tools/index.js";
import { registerBuiltinEngines } from "./builtin-engines.js";
import { IshikiConfig } from "./config.js";
import { createKoishiOutboundPort } from "./koishi-outbound.js";
import { ProfileActivation } from "./profile-activation.js";
import { usage } from "./usage.js";

declare module "koishi" {
  interface Context {
    ishiki: IshikiService;
  }
}

/** The `ishiki` service: the kernel a bot author configures and extensions build on (spec 00 OV-16). */
export class IshikiService extends Service {
  static Config = IshikiConfig;
  static usage = usage;

  /** Absolute data directory (spec 00 OV-11). */
  readonly dataPath: string;
  override readonly logger: Logger;
  /** The model gateway; plugins reach it as `ctx.ishiki.gateway` with `static inject = ["ishiki"]` (XA-22). */
  readonly gateway: Gateway;
  /** Where `send_message` delivers; the Koishi bots by default. Tests may swap in an in-memory port. */
  outbound: OutboundPort;
  private readonly activations = new Map<string, ProfileActivation>();

  constructor(
    ctx: Context,
    private readonly settings: IshikiConfig,
  ) {
    super(ctx, "ishiki", true);
    this.dataPath = resolve(ctx.baseDir, settings.dataPath);
    this.logger = ctx.logger("ishiki");
    this.gateway = createGateway({ config: settings.models, logger: this.logger });
    this.outbound = createKoishiOutboundPort(ctx);
    registerBuiltinEngines(ctx);
  }

  /** A profile's activation, when the profile was loaded. */
  profile(id: string): ProfileActivation | undefined {
    return this.activations.get(id);
  }

  /** The runtime of `domain` in profile `profileId`, created on first use; rejects unless the profile is active. */
  runtime(profileId: string, domain: RuntimeDomain): Promise<Runtime> {
    const activation = this.activations.get(profileId);
    if (activation === undefined) return Promise.reject(new Error(`[${profileId}] no such profile`));
    return activation.runtime(domain);
  }

  protected override start(): void {
    this.logger.info("ready, data at %s", this.dataPath);
    const profiles = this.settings.profiles ?? {};
    const ids = Object.keys(profiles).sort();
    if (ids.length === 0) this.logger.warn("no profile configured; add one under profiles");
    for (const id of ids) {
      let activation: ProfileActivation;
      try {
        activation = new ProfileActivation(this.ctx, this, resolveProfile(id, profiles[id]));
      } catch (error) {
        this.logger.error(`[${id}] profile skipped: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      this.activations.set(id, activation);
      const stop = activation.start();
      this.ctx.on("dispose", () => {
        this.activations.delete(id);
        stop();
      });
    }
  }
}
