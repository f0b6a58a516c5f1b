import { join, resolve } from "node:path";
import { Service } from "koishi";
import type { Context, Logger } from "koishi";
import { configureCodemodeWorkers } from "../codemode/index.js";
import type { RuntimeDomain } from "../extension/index.js";
import { createGateway, readModelsFile, type Gateway, type GatewayConfigSource } from "@yesimagent/gateway";
import type { Runtime } from "../runtime/index.js";
import type { OutboundPort } from "../tools/index.js";
import { registerBuiltinEngines } from "./builtin-engines.js";
import { DEFAULT_COMMAND_AUTHORITY, IshikiConfig } from "./config.js";
import { registerCommands } from "./commands/index.js";
import { attachConsole } from "./console/index.js";
import { listenToSessions } from "./ingestion.js";
import { loadProfiles } from "./profile-loading.js";
import { createKoishiOutboundPort } from "./koishi-outbound.js";
import { ProfileActivation } from "./profile-activation.js";
import { usage } from "./usage.js";
import { previewChannel, type ChannelPreviewRequest } from "./channel-preview.js";
import type { WakeupPreview } from "../runtime/index.js";

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
  /** Print each runtime's steps and tool timings (KP-6). */
  readonly debugStream: boolean;
  /** Where `send_message` delivers; the Koishi bots by default. Tests may swap in an in-memory port. */
  outbound: OutboundPort;
  private readonly activations = new Map<string, ProfileActivation>();
  /** Why `models.yaml` could not be read, logged at start with the gateway's own errors. */
  private modelFileError: string | undefined;

  constructor(
    ctx: Context,
    private readonly settings: IshikiConfig,
  ) {
    super(ctx, "ishiki", true);
    this.dataPath = resolve(ctx.baseDir, settings.dataPath);
    this.logger = ctx.logger("ishiki");
    this.gateway = createGateway({
      config: this.modelSources(),
      logger: this.logger,
      ...(settings.dumpRequests ? { dumpDir: join(this.dataPath, "requests") } : {}),
    });
    this.outbound = createKoishiOutboundPort(ctx);
    this.debugStream = settings.debugStream === true;
    // 2 is Koishi's own default; leaving it alone keeps a level set globally (e.g. `logger.levels.base`) working.
    if (settings.logLevel !== undefined && settings.logLevel !== 2) this.logger.level = settings.logLevel;
    // One pool of codemode workers per process, whatever the number of runtimes (issue 19); the effect's undo
    // restores the default size when the plugin stops.
    if (settings.codemodeWorkers !== undefined) ctx.effect(() => configureCodemodeWorkers(settings.codemodeWorkers as number));
    registerBuiltinEngines(ctx);
    listenToSessions(ctx, () => this.activations.values(), this.logger);
    registerCommands(ctx, this, { authority: settings.commandAuthority ?? DEFAULT_COMMAND_AUTHORITY });
    // The Ishiki console page, while the console is loaded (an optional service; issue 21).
    attachConsole(ctx, this);
  }

  /** Every loaded profile's activation, in id order. */
  profiles(): ProfileActivation[] {
    return [...this.activations.values()];
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

  /**
   * Policy preview (issue 22) of a channel of profile `profileId`: how the wakeup `settings` would have decided
   * over its recorded facts, beside what happened. The console page calls this; `ishiki.preview` too.
   */
  async previewWakeup(profileId: string, domain: RuntimeDomain, request: ChannelPreviewRequest): Promise<WakeupPreview> {
    return previewChannel(this.ctx, await this.runtime(profileId, domain), request);
  }

  /**
   * Start (spec 08 KP-38): the gateway has logged its broken entries once, when it was built (profiles using one
   * fail activation, those using a missing model fail at their first turn); every valid profile activates on its own.
   */
  protected override async start(): Promise<void> {
    this.logger.info("ready, data at %s", this.dataPath);
    if (this.modelFileError) this.logger.error(this.modelFileError);
    for (const profile of await loadProfiles(this.dataPath, this.settings.profiles ?? {}, this.logger)) {
      const activation = new ProfileActivation(this.ctx, this, profile);
      this.activations.set(profile.id, activation);
      const stop = await activation.start();
      this.ctx.on("dispose", () => {
        this.activations.delete(profile.id);
        stop();
      });
    }
  }

  /** The gateway's sources (spec 02 GW-1): the plugin's `models` key and `<dataPath>/models.yaml`, read once. */
  private modelSources(): GatewayConfigSource[] {
    const sources: GatewayConfigSource[] = [{ name: "koishi.yml", config: this.settings.models ?? {} }];
    const path = join(this.dataPath, "models.yaml");
    try {
      const file = readModelsFile(path);
      if (file !== undefined) sources.push({ name: path, config: file });
    } catch (error) {
      this.modelFileError = error instanceof Error ? error.message : String(error);
    }
    return sources;
  }
}
