import { join } from "node:path";
import { assertImageInput } from "../attachments/index.js";
import type { Context, Logger } from "koishi";
import { ContextEngine, isValidatingEngine, ToolcallEngine, validateBlock as validateBlockKey, WakeupEngine, type EngineFamily } from "../engines/index.js";
import { Extension, type RuntimeDomain } from "../extension/index.js";
import { checkQuickJSLoads } from "../codemode/index.js";
import type { Gateway } from "@yesimagent/gateway";
import type { EngineSection, ResolvedProfile } from "../profile/index.js";
import { createRuntime, runtimeIdOf, RuntimeRegistry, type ExtensionProvider, type Runtime, type RuntimeProviders } from "../runtime/index.js";
import { validateExtensionConfig } from "./extension-config.js";
import { prefixLogger } from "./prefix-logger.js";
import { resolveOutboundMedia } from "./outbound-media.js";
import { IDLE_SWEEP_MS, IdleTracker } from "./idle-eviction.js";
import { attachDebugStream } from "./debug-stream.js";
import { typingDelay } from "./typing-delay.js";
import type { OutboundPort } from "../tools/index.js";
import { DailyBudget, pricesOf, profileStreams, readUsage, utcDayStart } from "../usage/index.js";

/**
 * What an activation needs of the kernel service. Declared here rather than imported from `service.ts`, which
 * creates the activations: the service satisfies it structurally.
 */
export interface ActivationKernel {
  readonly dataPath: string;
  readonly logger: Logger;
  readonly gateway: Gateway;
  readonly debugStream: boolean;
  readonly outbound: OutboundPort;
}

export type ActivationStatus = "waiting" | "active" | "failed";

const ENGINE_BASES = { context: ContextEngine, wakeup: WakeupEngine, toolcall: ToolcallEngine } as const;

/**
 * One profile's activation (spec 07 XA-21): the three engine services and every enabled extension service go
 * to `ctx.inject`. While one is missing the profile waits (logged once per missing name); when all exist the
 * configs are validated and the profile becomes active; when one disappears its runtimes stop and it waits
 * again, and it is rebuilt when the service returns.
 */
export class ProfileActivation {
  private current: ActivationStatus = "waiting";
  private failure: string | undefined;
  private registry: RuntimeRegistry | undefined;
  private readonly reported = new Set<string>();
  private readonly idle = new IdleTracker();
  private readonly logger: Logger;
  public readonly root: string;
  public readonly services: string[];
  /** The profile's spending of the day against `budget` (issue 22); none without a budget. */
  public readonly budget: DailyBudget | undefined;
  /** Settles once today's usage on disk has been added to `budget` (read in the background at start). */
  public budgetSeeded: Promise<void> = Promise.resolve();

  public constructor(
    private readonly ctx: Context,
    private readonly kernel: ActivationKernel,
    public readonly profile: ResolvedProfile,
  ) {
    this.logger = kernel.logger;
    this.root = join(kernel.dataPath, "profiles", profile.id);
    this.services = [
      ContextEngine.GetName(profile.context.engine),
      WakeupEngine.GetName(profile.wakeup.engine),
      ToolcallEngine.GetName(profile.toolcall.engine),
      ...profile.extensions.map((extension) => Extension.serviceName(extension.name)),
    ];
    if (profile.budget !== undefined) this.budget = new DailyBudget(profile.id, profile.budget, (model) => pricesOf(kernel.gateway, model), kernel.logger);
  }

  public get status(): ActivationStatus {
    return this.current;
  }

  /** Why activation failed, while the status is `failed`. */
  public get failureReason(): string | undefined {
    return this.current === "failed" ? this.failure : undefined;
  }

  /** The required services not present now (what a waiting profile waits for). */
  public missingServices(): string[] {
    return this.services.filter((name) => this.ctx.get(name) === undefined);
  }

  /** The runtime `id` if it was created or is being created, without touching its idle time (the console). */
  public peekRuntime(id: string): Runtime | "starting" | undefined {
    return this.registry?.peek(id);
  }

  /**
   * Starts waiting for the services; the returned disposer deactivates the profile. A profile with codemode first
   * checks that QuickJS loads, and fails activation when it does not (KP-39).
   */
  public async start(): Promise<() => void> {
    try {
      if (this.profile.codemode?.enable === true) await checkQuickJSLoads();
    } catch (error) {
      this.fail(error);
      return () => {};
    }
    // Not awaited: activation does not wait for the scan, whose window ends where live counting began.
    this.budgetSeeded = this.seedBudget();
    const fork = this.ctx.inject(this.services, (fiber) => this.activate(fiber));
    this.reportMissingSoon();
    return () => fork.dispose();
  }

  /** The runtime of `domain`, created on first use; rejects unless the profile is active. */
  public runtime(domain: RuntimeDomain): Promise<Runtime> {
    if (this.registry === undefined) return Promise.reject(new Error(`[${this.profile.id}] profile is ${this.current}`));
    this.idle.touch(runtimeIdOf(this.profile.id, domain));
    return this.registry.get(domain);
  }

  /** Ids of the runtimes created so far. */
  public runtimeIds(): string[] {
    return this.registry?.ids() ?? [];
  }

  /**
   * Today's calls already in the fact streams count against the budget (a restart does not reset the day). Only
   * calls before the scan started are read: later ones are counted live.
   */
  private async seedBudget(): Promise<void> {
    const budget = this.budget;
    if (budget === undefined) return;
    const started = Date.now();
    try {
      for (const file of await profileStreams(this.root)) {
        budget.seed((await readUsage(file, this.profile.id, utcDayStart(started))).filter((item) => item.at < started));
      }
    } catch (error) {
      this.logger.warn(`[${this.profile.id}] daily budget: could not read today's usage: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private activate(fiber: Context): void {
    const id = this.profile.id;
    this.reported.clear();
    let providers: RuntimeProviders;
    let profile: ResolvedProfile;
    try {
      profile = { ...this.profile, context: this.section(fiber, "context"), wakeup: this.section(fiber, "wakeup"), toolcall: this.section(fiber, "toolcall") };
      providers = this.providers(fiber, profile);
      assertModelNotBroken(this.kernel.gateway, profile.model);
      if (profile.resources?.imageInput === true) assertImageInput(this.kernel.gateway, profile.model);
    } catch (error) {
      this.fail(error);
      fiber.on("dispose", () => this.deactivated());
      return;
    }
    const logger = fiber.logger("ishiki");
    const registry = new RuntimeRegistry(id, (domain) => {
      const runtime = createRuntime({
        profile,
        domain,
        root: this.root,
        dataPath: this.kernel.dataPath,
        fiber,
        gateway: this.kernel.gateway,
        logger,
        prefixLogger,
        providers,
        ...(this.budget === undefined ? {} : { budget: this.budget }),
        // Looked up per message, so a port swapped on the service reaches runtimes created before.
        outbound: { send: (address, content) => this.kernel.outbound.send(address, content) },
        sendMessage: (center) => ({
          prepare: (content) => resolveOutboundMedia(content, center),
          pause: (content) => typingDelay(content, profile.typing),
        }),
      });
      return runtime.then((value) => {
        this.idle.created(value);
        if (this.kernel.debugStream) attachDebugStream(value, logger);
        return value;
      });
    }, logger);
    this.registry = registry;
    this.current = "active";
    this.logger.info(`[${id}] profile active; claims ${describeClaims(profile)}`);
    fiber.setInterval(() => void this.evictIdle(), IDLE_SWEEP_MS);
    fiber.on("dispose", () => {
      this.registry = undefined;
      this.idle.clear();
      this.deactivated();
      return registry.stopAll();
    });
  }

  /**
   * Stops runtimes idle for 30 minutes (KP-20); the next event re-creates them from disk. Runs every minute;
   * `now` lets a test look ahead.
   */
  public async evictIdle(now = Date.now()): Promise<string[]> {
    const registry = this.registry;
    if (registry === undefined) return [];
    const due = this.idle.due(now);
    for (const id of due) {
      this.logger.debug(`[${id}] runtime stopped after 30 minutes idle`);
      await registry.evict(id);
    }
    return due;
  }

  private fail(error: unknown): void {
    this.current = "failed";
    this.failure = error instanceof Error ? error.message : String(error);
    this.logger.error(`[${this.profile.id}] activation failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  private deactivated(): void {
    this.current = "waiting";
    // A required service went away, or the kernel itself is stopping: only the first case waits visibly.
    this.reportMissingSoon();
  }

  /**
   * Services of other plugins are set a few ticks after Koishi's `ready`, and a disposed service may be coming
   * straight back (a reload): look once the current tick's work has settled.
   */
  private reportMissingSoon(): void {
    setTimeout(() => this.reportMissing(), 0).unref?.();
  }

  private reportMissing(): void {
    if (this.current !== "waiting" || !this.ctx.scope.isActive) return;
    for (const name of this.services) {
      if (this.ctx.get(name) !== undefined || this.reported.has(name)) continue;
      this.reported.add(name);
      this.logger.warn(`[${this.profile.id}] missing required service ${name}; profile is waiting (check the name if the plugin is installed)`);
    }
  }

  /** A built-in variant validates its block (spec 06 EN-5); custom variants get the section as written. */
  private section(fiber: Context, family: EngineFamily): EngineSection {
    const section = this.profile[family];
    const provider = fiber.get(ENGINE_BASES[family].GetName(section.engine));
    if (!isValidatingEngine(provider)) return section;
    const { value, warnings } = provider[validateBlockKey](section[section.engine]);
    for (const warning of warnings) this.logger.warn(`[${this.profile.id}] ${warning}`);
    return { ...section, [section.engine]: value };
  }

  private providers(fiber: Context, profile: ResolvedProfile): RuntimeProviders {
    const extensions: ExtensionProvider[] = profile.extensions.map(({ name, config }) => {
      const service = fiber.get(Extension.serviceName(name)) as Extension;
      return { name, service, config: validateExtensionConfig(name, service, config) };
    });
    return {
      context: fiber.get(ContextEngine.GetName(profile.context.engine)) as ContextEngine,
      wakeup: fiber.get(WakeupEngine.GetName(profile.wakeup.engine)) as WakeupEngine,
      toolcall: fiber.get(ToolcallEngine.GetName(profile.toolcall.engine)) as ToolcallEngine,
      extensions,
    };
  }
}

/** `sandbox:*:* [*]; onebot:1 [*, !private:1]`: what a profile claims, as its `channels` say it. */
export function describeClaims(profile: Pick<ResolvedProfile, "claims">): string {
  return profile.claims.map((claim) => `${claim.key} [${[...claim.include, ...claim.exclude.map((pattern) => `!${pattern}`)].join(", ")}]`).join("; ");
}

/**
 * A profile whose model is a provider or group the gateway left out as broken fails activation (KP-38). An
 * unknown reference does not: models may still be defined later (`reconfigure`, `defineApi`), and the first turn
 * reports it.
 */
function assertModelNotBroken(gateway: Gateway, model: string): void {
  try {
    gateway.profileModel(model);
  } catch (error) {
    if (!gateway.errors().includes(error as never)) return;
    // The gateway logged the entry's error when it was built; name the entry here rather than repeat its cause.
    const entry = (error as Error).message.split(": ")[0];
    throw new Error(`model "${model}" needs ${entry}, which the gateway left out (its error is logged above)`);
  }
}
