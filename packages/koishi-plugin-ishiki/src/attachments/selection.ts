import { ResourceError, type ResourcePayload } from "../resources/index.js";
import type { IshikiAttachmentItem } from "../types/index.js";
import type { DeliveryState } from "./attachment-history.js";
import { DECISIONS } from "./decisions.js";
import { probeImage } from "./image-probe.js";
import type { ResourceSettings } from "./settings.js";

/** One active item of this request, in arrival order. */
export interface Candidate {
  key: string;
  item: IshikiAttachmentItem;
  state: DeliveryState;
}

/** What this request does with an item, and what a persisted response records for it (04 EX-29, EX-31). */
export interface Selected {
  decision: string;
  /** The bytes of an included image and their encoding. */
  file?: { bytes: Uint8Array; mediaType: string };
  outcome?: "shown" | "terminal" | "released";
}

export type ByteLoader = (url: string) => Promise<ResourcePayload>;

function isImage(item: IshikiAttachmentItem): boolean {
  return item.mediaType.startsWith("image/") || item.mediaType === "image";
}

/** Still able to reach the model: not consumed, released or terminally described. */
function isActive({ item, state }: Candidate): boolean {
  return !state.released && state.terminal === undefined && !(state.shown && item.lifetime === "once");
}

/**
 * Per-request selection (04 EX-23, EX-28, EX-30). First `recent` pruning over all active images; then unviewed
 * items in arrival order, then viewed `retain`/`recent` ones, each through the checks in order: same-URL
 * dedupe, capability, media type, declared size, load, encoding, dimension, remaining budget. Inactive items
 * get their lifetime decision or their persisted terminal one. Budgets are this request's alone.
 */
export async function selectAttachments(candidates: readonly Candidate[], settings: ResourceSettings, load: ByteLoader): Promise<Map<string, Selected>> {
  const selected = new Map<string, Selected>();
  const included = new Set<string>();
  const budget = { count: 0, bytes: 0 };
  const terminal = (decision: string): Selected => ({ decision, outcome: "terminal" });

  const active = candidates.filter(isActive);
  const excess = active.filter((candidate) => isImage(candidate.item)).length - settings.recentImageCount;
  if (excess > 0) {
    const quota = Math.ceil(excess / settings.imagePruneBatchSize) * settings.imagePruneBatchSize;
    const oldest = active.filter((c) => c.item.lifetime === "recent" && c.state.shown && isImage(c.item)).slice(0, quota);
    for (const candidate of oldest) selected.set(candidate.key, { decision: DECISIONS.released, outcome: "released" });
  }

  const decide = async ({ item, state }: Candidate): Promise<Selected> => {
    const firstShow = state.shown ? {} : { outcome: "shown" as const };
    if (included.has(item.url)) return { decision: DECISIONS.represented, ...firstShow };
    if (!settings.imageInput) return terminal(DECISIONS.imageInputDisabled);
    if (!isImage(item)) return terminal(DECISIONS.unsupportedMediaType);
    const sizeLimit = (size: number) =>
      size > settings.maxImageBytes ? DECISIONS.singleByteLimit : size > settings.maxTotalImageBytes ? DECISIONS.requestByteLimit : undefined;
    const declared = sizeLimit(item.size);
    if (declared) return terminal(declared);
    let payload: ResourcePayload;
    try {
      payload = await load(item.url);
    } catch (error) {
      return { decision: DECISIONS.unavailable(error instanceof ResourceError ? error.code : "resource_read_failed") };
    }
    if (payload.type !== "file") return terminal(DECISIONS.unsupportedMediaType);
    const actual = sizeLimit(payload.bytes.length);
    if (actual) return terminal(actual);
    const header = probeImage(payload.bytes);
    if (!header) return terminal(DECISIONS.unsupportedEncoding);
    if ((header.width ?? 0) > settings.maxImageDimension || (header.height ?? 0) > settings.maxImageDimension) return terminal(DECISIONS.dimensionLimit);
    const over =
      budget.count + 1 > settings.maxImageCount ? DECISIONS.countBudget : budget.bytes + payload.bytes.length > settings.maxTotalImageBytes ? DECISIONS.byteBudget : undefined;
    if (over) return state.shown && item.lifetime === "recent" ? { decision: DECISIONS.released, outcome: "released" } : { decision: over };
    budget.count += 1;
    budget.bytes += payload.bytes.length;
    included.add(item.url);
    return { decision: DECISIONS.include, file: { bytes: payload.bytes, mediaType: header.mediaType }, ...firstShow };
  };

  const pending = active.filter((candidate) => !selected.has(candidate.key));
  const visits = [...pending.filter((c) => !c.state.shown), ...pending.filter((c) => c.state.shown)];
  for (const candidate of visits) selected.set(candidate.key, await decide(candidate));

  for (const { key, item, state } of candidates) {
    if (selected.has(key)) continue;
    if (included.has(item.url)) selected.set(key, { decision: DECISIONS.represented });
    else if (state.terminal !== undefined) selected.set(key, { decision: state.terminal });
    else selected.set(key, { decision: state.released ? DECISIONS.released : DECISIONS.shownEarlier });
  }
  return selected;
}
