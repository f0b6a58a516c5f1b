import type { Context } from "koishi";
import { isValidatingEngine, validateBlock, WakeupEngine } from "../engines/index.js";
import { channelKey } from "../engines/wakeup/channel-key.js";
import type { RuntimeDomain } from "../extension/index.js";
import { previewWakeup, type Runtime, type WakeupPreview } from "../runtime/index.js";

export interface ChannelPreviewRequest {
  /** The wakeup section to try, as a profile writes it: `{ engine: "standard", standard: { keywords: ["开会"] } }`. */
  settings: unknown;
  /** `platform:selfId/channelId`; defaults to the runtime's channel (required in cross mode). */
  channel?: string;
  /** Days to replay, counted back from now (default 7). */
  days?: number;
  /** Model calls the owner grants the judge (default 0: rules only). */
  modelCalls?: number;
  seed?: number;
}

/** Why a preview could not run: settings that are not a section, a missing engine, an invalid block. */
export class PreviewSettingsError extends Error {
  public constructor(
    public readonly reason: "bad-settings" | "no-engine" | "invalid",
    message: string,
  ) {
    super(message);
    this.name = "PreviewSettingsError";
  }
}

const DAY_MS = 86_400_000;

/**
 * Policy preview of one runtime's channel (issue 22), for `ishiki.preview` and the console: the settings are
 * validated as at activation (built-in blocks get their defaults; unknown keys are ignored), then the channel's
 * recorded facts of the last `days` are replayed on a virtual clock. Nothing is written; no model is called
 * beyond `modelCalls`.
 */
export async function previewChannel(ctx: Context, runtime: Runtime, request: ChannelPreviewRequest): Promise<WakeupPreview> {
  const settings = request.settings;
  if (typeof settings !== "object" || settings === null || Array.isArray(settings) || typeof (settings as { engine?: unknown }).engine !== "string") {
    throw new PreviewSettingsError("bad-settings", "expected an object with a string `engine`");
  }
  const engine = (settings as { engine: string }).engine;
  const provider = ctx.get(WakeupEngine.GetName(engine)) as WakeupEngine | undefined;
  if (provider === undefined) throw new PreviewSettingsError("no-engine", engine);
  let block: unknown = (settings as Record<string, unknown>)[engine];
  if (isValidatingEngine(provider)) {
    try {
      block = provider[validateBlock](block).value;
    } catch (error) {
      throw new PreviewSettingsError("invalid", error instanceof Error ? error.message : String(error));
    }
  }
  const channel = request.channel ?? defaultChannel(runtime.domain);
  const days = request.days ?? 7;
  return previewWakeup({
    provider,
    section: { engine, [engine]: block },
    host: runtime.host,
    entries: await runtime.agent.storage.read(),
    channel,
    since: Date.now() - days * DAY_MS,
    modelCalls: request.modelCalls ?? 0,
    ...(request.seed === undefined ? {} : { seed: request.seed }),
  });
}

function defaultChannel(domain: RuntimeDomain): string {
  if (domain.mode === "cross") throw new PreviewSettingsError("bad-settings", "a cross-mode runtime needs the channel to preview");
  return channelKey(domain);
}
