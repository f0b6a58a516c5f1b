import type { LanguageModel } from "ai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { Agent } from "@yesimagent/core";
import type { ToolcallEngineInstance } from "../engines/index.js";
import type { Gateway } from "@yesimagent/gateway";

/** Where a runtime's model comes from: `build` makes it, `version` changes whenever a rebuild is due. */
export interface ModelSource {
  build(): LanguageModelV4;
  version(): unknown;
}

/**
 * A profile's model from the gateway. A group is looked up on every call by the failover model itself; a plain
 * `provider:model` reference is built against the provider of the moment, so a `reconfigure` that replaces
 * that provider calls for a rebuild. `ref` is read on every call: a reached budget may switch the profile to a
 * cheaper group (issue 22), which is a rebuild too. `meter` observes the built model (usage, issue 22).
 */
export function gatewayModelSource(
  gateway: Gateway,
  ref: () => string,
  options: Parameters<Gateway["profileModel"]>[1],
  meter: (model: LanguageModelV4, ref: string) => LanguageModelV4 = (model) => model,
): ModelSource {
  const providerOf = (reference: string): unknown => {
    if (!reference.includes(":")) return undefined;
    try {
      return gateway.provider(reference.slice(0, reference.indexOf(":")));
    } catch {
      return undefined;
    }
  };
  // The version is compared by identity: the same object while neither the reference nor its provider moved.
  let last: { ref: string; provider: unknown } | undefined;
  return {
    build() {
      const reference = ref();
      return meter(gateway.profileModel(reference, options), reference);
    },
    version() {
      const reference = ref();
      const provider = providerOf(reference);
      if (last === undefined || last.ref !== reference || last.provider !== provider) last = { ref: reference, provider };
      return last;
    },
  };
}

function isV4(model: LanguageModel): model is LanguageModelV4 {
  return typeof model === "object" && model !== null && (model as { specificationVersion?: unknown }).specificationVersion === "v4";
}

/**
 * The agent's model for one runtime (spec 06 EN-38, seed 001): the toolcall instance's `wrap()` is called once,
 * at creation, around a model that resolves its target on every call: the gateway's model, rebuilt when a
 * `reconfigure` replaced the profile's provider, or the model an `agent.setModel` put in place. Either change
 * applies at the next call without wrapping again. The models handed in are never mutated; a replacement that
 * is not a LanguageModelV4 object passes unwrapped.
 */
export class ModelBinding {
  /** The wrapped model the agent runs with. */
  public readonly model: LanguageModel;
  private target: LanguageModelV4;
  private version: unknown;

  public constructor(
    instance: ToolcallEngineInstance,
    private readonly source: ModelSource,
  ) {
    this.version = source.version();
    // Built once here, so a reference the gateway cannot build still fails the runtime's creation.
    this.target = source.build();
    this.model = instance.wrap(this.resolving());
  }

  /**
   * Adopts a model an `agent.setModel` put in place (called before each step): it becomes the target of the
   * wrapped model, which the agent gets back. A non-V4 replacement stays as it is, unwrapped.
   */
  public refresh(agent: Agent): void {
    const model = agent.getModel();
    if (model === this.model || !isV4(model)) return;
    this.target = model;
    agent.setModel(this.model);
  }

  /** The current target: rebuilt from the source when its version moved (a gateway `reconfigure`). */
  private current(): LanguageModelV4 {
    const version = this.source.version();
    if (version !== this.version) {
      this.version = version;
      this.target = this.source.build();
    }
    return this.target;
  }

  private resolving(): LanguageModelV4 {
    const current = () => this.current();
    return {
      specificationVersion: "v4",
      get provider() {
        return current().provider;
      },
      get modelId() {
        return current().modelId;
      },
      get supportedUrls() {
        return current().supportedUrls;
      },
      doGenerate: (options) => current().doGenerate(options),
      doStream: (options) => current().doStream(options),
    };
  }
}
