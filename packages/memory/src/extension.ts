import { Service } from "koishi";
import type { Context } from "koishi";
import { Extension } from "koishi-plugin-ishiki";
import type { ExtensionHost, ExtensionInstance } from "koishi-plugin-ishiki";
import { registerMemoryCommand } from "./command.js";
import { Consolidation } from "./consolidation.js";
import { Conversation } from "./conversation.js";
import { RuntimeMemory } from "./runtime-memory.js";
import { MemoryScheme } from "./scheme.js";
import { Embedder } from "./search/embedder.js";
import { MemoryPluginConfig, MemorySettings } from "./settings.js";
import { MemoryStore } from "./store/memory-store.js";
import { defineTables } from "./store/tables.js";
import { createMemoryTools } from "./tools/memory-tools.js";

/**
 * The `memory` extension (issue 24): memories of people, channels and the profile on Koishi's `database`,
 * written only by the model's own tool calls (`memory_save`, `memory_forget`, `memory_search`), shown in a
 * bounded instruction section and readable as `memory://`. The store and each profile's index are shared by
 * every runtime of the process; a profile's consolidation state lives on the service, keyed by profile id.
 */
export class MemoryExtension extends Extension<MemorySettings> {
  public static readonly inject = ["ishiki", "database"];
  public override readonly Schema = MemorySettings;
  public readonly store: MemoryStore;
  private readonly consolidations = new Map<string, Consolidation>();
  /** Profiles whose activation (fiber) releases their in-memory copy when it ends. */
  private readonly watched = new WeakSet<object>();

  public constructor(ctx: Context, config: MemoryExtension.Config) {
    super(ctx, "memory");
    this.logger.level = config.logLevel;
    defineTables(ctx);
    this.store = new MemoryStore(ctx);
    registerMemoryCommand(ctx, this.store, config, () => ctx.ishiki.dataPath);
  }

  public [Service.invoke](host: ExtensionHost, settings: MemorySettings): ExtensionInstance {
    const profile = host.profileId;
    if (!this.watched.has(host.fiber)) {
      this.watched.add(host.fiber);
      host.fiber.on("dispose", () => {
        this.consolidations.delete(profile);
        this.store.release(profile);
      });
    }
    const conversation = new Conversation();
    const embedder = settings.embeddingModel === "" ? undefined : new Embedder(host.gateway, settings.embeddingModel, this.store, profile);
    const memory = new RuntimeMemory(this.store, profile, host.domain, settings, conversation, embedder, (message) => host.logger.warn(message));
    const consolidation = this.consolidation(host, settings);
    const tools = createMemoryTools(memory, (record) => consolidation?.consider(record));
    const detach = host.resources.attach(new MemoryScheme(memory));
    return {
      attach: (handle) => conversation.attach(handle),
      extendInstructions: () => memory.instructions(),
      extendTools: () => tools,
      stop: () => detach(),
    };
  }

  /** The profile's consolidation pass, made once per activation; none without a token budget. */
  private consolidation(host: ExtensionHost, settings: MemorySettings): Consolidation | undefined {
    if (settings.consolidation.tokenBudget === 0) return undefined;
    let consolidation = this.consolidations.get(host.profileId);
    if (!consolidation) {
      const { model } = settings.consolidation;
      const chosen = () => (model === "" ? host.profileModel() : host.gateway.profileModel(model));
      consolidation = new Consolidation(this.store, host.profileId, settings.consolidation, chosen, settings.maxTextChars, this.logger);
      this.consolidations.set(host.profileId, consolidation);
    }
    return consolidation;
  }
}

export namespace MemoryExtension {
  export type Config = MemoryPluginConfig;
  export const Config = MemoryPluginConfig;
}
