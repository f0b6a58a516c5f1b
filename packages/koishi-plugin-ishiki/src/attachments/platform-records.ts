import type { AgentCustomMessageOf } from "@yesimagent/core";
import { probeImage } from "./image-probe.js";
import type { ResourceCenter } from "../resources/index.js";
import type { IshikiAttachmentItem, IshikiMessageCreated } from "../types/index.js";
import { factMedia, type FactMedium } from "./fact-media.js";

export type AttachmentMessage = AgentCustomMessageOf<"ishiki.attachment">;
export type FactMessage = AgentCustomMessageOf<"ishiki.message.created">;

const TYPE_HINTS: Record<string, string> = { img: "image/*", image: "image/*", audio: "audio/*", video: "video/*" };
const ASSET_ID = /^asset:\/\/([0-9a-f]{32})$/;

/** The id of a fact's derived record message (04 EX-36). */
export function platformRecordId(factMessageId: string): string {
  return `${factMessageId}#attachments`;
}

/**
 * Platform records (04 EX-17): derived from a fact's `asset://` media at projection, never persisted. Each is
 * derived once and reused, so its text stays stable across requests; with image input on, the assets are
 * fetched first so types, sizes and dimensions are known, and a record whose fetch failed is derived again.
 */
export class PlatformRecords {
  private readonly cache = new Map<string, { message: AttachmentMessage; complete: boolean }>();
  /** Record message id → `message #<id> from <Name>(<userId>)`. */
  readonly origins = new Map<string, string>();

  constructor(
    private readonly resources: Pick<ResourceCenter, "store">,
    private readonly imageInput: boolean,
  ) {}

  async derive(fact: FactMessage): Promise<AttachmentMessage | undefined> {
    const cached = this.cache.get(fact.id);
    if (cached?.complete) return cached.message;
    const media = factMedia(fact.data);
    if (media.length === 0) return undefined;
    let complete = true;
    const items: IshikiAttachmentItem[] = [];
    for (const medium of media) {
      const item = await this.item(medium);
      if (item.size === 0) complete = false;
      items.push(item);
    }
    const { platform, selfId, channelId, messageId, user } = fact.data;
    const id = platformRecordId(fact.id);
    const message: AttachmentMessage = {
      id,
      timestamp: fact.timestamp,
      role: "custom",
      type: "ishiki.attachment",
      data: { source: "platform", platform, selfId, channelId, messageId, items },
    };
    this.cache.set(fact.id, { message, complete: complete || !this.imageInput });
    this.origins.set(id, origin(fact.data));
    return message;
  }

  private async item(medium: FactMedium): Promise<IshikiAttachmentItem> {
    const id = ASSET_ID.exec(medium.url)?.[1];
    let metadata = id === undefined ? undefined : await this.resources.store.metadata("asset", id);
    let dimensions: { width?: number; height?: number } = { width: metadata?.width, height: metadata?.height };
    if (id !== undefined && this.imageInput) {
      try {
        const read = await this.resources.store.readAsset(id);
        metadata = read.metadata;
        const header = probeImage(read.bytes);
        if (header?.width !== undefined) dimensions = { width: header.width, height: header.height };
      } catch {
        // Left unfetched: selection defers the item as unavailable and the record is derived again next time.
      }
    }
    const item: IshikiAttachmentItem = {
      url: medium.url,
      mediaType: metadata?.mediaType ?? TYPE_HINTS[medium.element] ?? "application/octet-stream",
      size: metadata?.byteLength ?? 0,
      lifetime: "once",
      immutable: true,
    };
    const filename = metadata?.filename ?? medium.filename;
    if (filename !== undefined) item.filename = filename;
    if (dimensions.width !== undefined && dimensions.height !== undefined) Object.assign(item, dimensions);
    return item;
  }
}

function origin(fact: IshikiMessageCreated): string {
  return `message #${fact.messageId} from ${fact.user.name ? `${fact.user.name}(${fact.user.id})` : fact.user.id}`;
}
