import type { LanguageModelV4, LanguageModelV4Middleware } from "@ai-sdk/provider";
import type { Context } from "koishi";
import { z } from "zod";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import type { EngineConfig, ToolcallEngines } from "../engine-maps.js";
import { validateWithZod } from "../shared/index.js";
import { ToolcallEngine } from "../toolcall-engine.js";
import { ToolcallEngineInstance } from "../toolcall-engine-instance.js";
import { createNarrativeModel, type NarrativeRoles } from "./narrative-model.js";

const reference = { error: "expected a model reference (provider:model or a group name)" };
const positive = { error: "expected an integer >= 1" };

export const narrativeToolcallBlock = z.object({
  narrator: z.string(reference).min(1, reference).optional(),
  replyer: z.string(reference).min(1, reference).optional(),
  decoder: z.string(reference).min(1, reference).optional(),
  maxNarrationTokens: z.number({ error: "expected a number" }).int(positive).min(1, positive).default(512),
  replyStyle: z.string({ error: "expected a string" }).default(""),
});

export type NarrativeToolcallSettings = z.infer<typeof narrativeToolcallBlock>;

/**
 * One runtime's `narrative` orchestration (spec 06 EN-42): `wrap` returns a model of its own that runs the
 * Narrator, Replyer and Action Decoder; no middleware is involved. The wrapped model lends only its identity:
 * the roles use the models the config names, or the profile's model through failover (EN-43).
 */
export class NarrativeToolcallInstance extends ToolcallEngineInstance {
  public constructor(
    private readonly host: ExtensionHost,
    private readonly settings: NarrativeToolcallSettings,
  ) {
    super();
  }

  protected middleware(): LanguageModelV4Middleware | undefined {
    return undefined;
  }

  public override wrap(model: LanguageModelV4): LanguageModelV4 {
    const { host, settings } = this;
    const resolve = (ref: string | undefined) => (): LanguageModelV4 => (ref === undefined ? host.profileModel() : host.gateway.profileModel(ref, { logger: host.logger }));
    const roles: NarrativeRoles = { narrator: resolve(settings.narrator), replyer: resolve(settings.replyer), decoder: resolve(settings.decoder) };
    return createNarrativeModel(model, {
      roles,
      maxNarrationTokens: settings.maxNarrationTokens,
      replyStyle: settings.replyStyle,
      cross: host.domain.mode === "cross",
      logger: host.logger,
    });
  }
}

/**
 * The `narrative` toolcall engine (spec 06 EN-42, EN-43). It needs the `narrative` context engine: a call
 * whose prompt lacks the marker line fails the turn.
 */
export class NarrativeToolcallEngine extends ToolcallEngine<"narrative"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "narrative");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("toolcall.narrative", narrativeToolcallBlock, block);
  }

  public [ToolcallEngine.invoke](host: ExtensionHost, config: EngineConfig<Pick<ToolcallEngines, "narrative">>): ToolcallEngineInstance {
    return new NarrativeToolcallInstance(host, narrativeToolcallBlock.parse(config.narrative ?? {}));
  }
}
