import { Service } from "koishi";
import type { Context } from "koishi";
import { Extension } from "koishi-plugin-ishiki";
import type { AgentRuntime, ExtensionHost, ExtensionInstance, ToolSet } from "koishi-plugin-ishiki";
import { onebotAccounts } from "./accounts.js";
import { ActionRunner } from "./action-runner.js";
import { registerApprovalCommands } from "./approvals/approval-commands.js";
import { ApprovalDesk } from "./approvals/approval-desk.js";
import { RuntimeApprovals } from "./approvals/runtime-approvals.js";
import type { CatalogEntry, Implementation } from "./catalog/catalog-entry.js";
import { RollingHour } from "./destructive-gate.js";
import { approvalsOn, exposedEntries } from "./exposure.js";
import { catalog } from "./generated/catalog.js";
import { onebotInstructions } from "./instructions.js";
import { FilePublisher } from "./publish/file-publisher.js";
import { MediaResolver } from "./publish/media-resolver.js";
import { OneBotScheme } from "./scheme/onebot-scheme.js";
import { OneBotActionsPluginConfig, OneBotActionsSettings } from "./settings.js";
import { genericTools } from "./tools/generic-tools.js";
import { typedTools } from "./tools/typed-tools.js";

/**
 * The `onebot-actions` extension (spec 11): OneBot v11 actions as tools in `generic` or `typed` mode, gated by
 * scope, allow rules or approvals, protected members and an hourly cap; the read-only `onebot://` scheme; and
 * temporary URLs on Koishi's server for files sent from resource URLs.
 */
export class OneBotActionsExtension extends Extension<OneBotActionsSettings> {
  public static readonly inject = { ishiki: { required: true }, server: { required: false } };
  public override readonly Schema = OneBotActionsSettings;
  /** Destructive executions per profile directory: the hourly cap spans the profile's runtimes (OB-16). */
  private readonly hours = new Map<string, RollingHour>();
  /** Pending approvals of every runtime, so the approval commands find them (OB-15). */
  private readonly desk = new ApprovalDesk();
  /** Temporary URLs of every runtime on Koishi's server, when it is loaded (OB-19). */
  private readonly publisher: FilePublisher;

  public constructor(ctx: Context, config: OneBotActionsExtension.Config) {
    super(ctx, "onebot-actions");
    this.logger.level = config.logLevel;
    this.publisher = new FilePublisher(ctx);
    registerApprovalCommands(ctx, this.desk);
    ctx.on("dispose", () => {
      this.desk.dispose();
      this.publisher.dispose();
    });
  }

  public [Service.invoke](host: ExtensionHost, settings: OneBotActionsSettings): ExtensionInstance | undefined {
    const accounts = onebotAccounts(host.domain);
    if (accounts.length === 0) {
      host.logger.debug("onebot-actions: this runtime's domain has no onebot account; contributing nothing");
      return undefined;
    }
    let runtime: AgentRuntime | undefined;
    const approvals = approvalsOn(settings)
      ? new RuntimeApprovals({
          ctx: host.fiber,
          desk: this.desk,
          settings: settings.approval,
          profileId: host.profileId,
          runtimeId: host.runtimeId,
          selfId: accounts[0].selfId,
          runtime: () => runtime,
          logger: host.logger,
        })
      : undefined;
    const media = new MediaResolver({ resources: host.resources, publisher: this.publisher, settings: settings.publish, runtimeId: host.runtimeId });
    const runner = new ActionRunner({ ctx: host.fiber, settings, accounts, runtime: () => runtime, logger: host.logger, hour: this.hourOf(host), media, approvals });
    const detach = host.resources.attach(new OneBotScheme(runner, host.resources.store));
    const cross = host.domain.mode === "cross";
    const instructions = onebotInstructions(settings, accounts);
    let cached: { implementation: Implementation; tools: ToolSet } | undefined;

    const tools = async (): Promise<ToolSet> => {
      const implementation = await runner.implementation();
      if (cached?.implementation === implementation) return cached.tools;
      const { entries, hidden } = exposedEntries(catalog, settings, implementation);
      for (const reason of hidden) host.logger.warn(reason);
      const exposed: readonly CatalogEntry[] = entries;
      const context = { runner, settings, exposed, cross };
      cached = { implementation, tools: settings.mode === "generic" ? genericTools(context) : typedTools(context) };
      return cached.tools;
    };

    return {
      attach: (handle) => {
        runtime = handle;
      },
      extendInstructions: () => instructions,
      extendTools: tools,
      stop: () => {
        this.desk.dropRuntime(host.runtimeId);
        this.publisher.revokeRuntime(host.runtimeId);
        detach();
      },
    };
  }

  private hourOf(host: ExtensionHost): RollingHour {
    let hour = this.hours.get(host.root);
    if (!hour) {
      this.hours.set(host.root, (hour = new RollingHour()));
      host.fiber.on("dispose", () => {
        this.hours.delete(host.root);
      });
    }
    return hour;
  }
}

export namespace OneBotActionsExtension {
  export type Config = OneBotActionsPluginConfig;
  export const Config = OneBotActionsPluginConfig;
}
