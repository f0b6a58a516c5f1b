import type { LanguageModel } from "ai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { Agent } from "@yesimagent/core";
import type { ToolcallEngineInstance } from "../engines/index.js";
import type { Gateway } from "@yesimagent/gateway";

/** Where a runtime's model comes from: `build` makes it, `version` changes whenever a rebuild is due. */
export interface ModelSource {
  build(): LanguageModel;
  version(): unknown;
}

/**
 * A profile's model from the gateway. A group is looked up on every call by the failover model itself; a plain
 * `provider:model` reference is built against the provider of the moment, so a `reconfigure` that replaces
 * that provider calls for a rebuild.
 */
export function gatewayModelSource(gateway: Gateway, ref: string, options: Parameters<Gateway["profileModel"]>[1]): ModelSource {
  const provider = ref.includes(":") ? ref.slice(0, ref.indexOf(":")) : undefined;
  return {
    build: () => gateway.profileModel(ref, options),
    version() {
      if (provider === undefined) return undefined;
      try {
        return gateway.provider(provider);
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Keeps the agent's model wrapped by the runtime's toolcall instance (spec 06 EN-38): wrapped once at creation,
 * and again with the same instance at the next step after a model change (`agent.setModel`, or a gateway
 * `reconfigure` that rebuilt the profile's provider). The model handed in is never mutated; models that are not
 * LanguageModelV4 objects pass unwrapped.
 */
export class ModelBinding {
  private current: LanguageModel;
  private version: unknown;

  public constructor(
    private readonly instance: ToolcallEngineInstance,
    private readonly source: ModelSource,
  ) {
    this.version = source.version();
    this.current = this.wrap(source.build());
  }

  /** The wrapped model the agent starts with. */
  public get model(): LanguageModel {
    return this.current;
  }

  /** Re-wraps when the gateway rebuilt the model's provider or the agent's model was replaced. */
  public refresh(agent: Agent): void {
    const version = this.source.version();
    if (version !== this.version) {
      this.version = version;
      this.current = this.wrap(this.source.build());
      agent.setModel(this.current);
      return;
    }
    const model = agent.getModel();
    if (model === this.current) return;
    this.current = this.wrap(model);
    agent.setModel(this.current);
  }

  private wrap(model: LanguageModel): LanguageModel {
    if (typeof model !== "object" || model === null || (model as { specificationVersion?: unknown }).specificationVersion !== "v4") return model;
    return this.instance.wrap(model as LanguageModelV4);
  }
}
