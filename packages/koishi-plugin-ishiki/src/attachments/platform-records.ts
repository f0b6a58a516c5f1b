import type { AgentCustomMessageOf } from "@yesimagent/core";
import { probeImage } from "./image-probe.js";
import type { ResourceCenter } from "../resources/index.js";
import type { IshikiAttachmentItem, IshikiMessageCreated } from "../types/index.js";
import { factMedia, type FactMedium } from "./fact-media.js";

export type AttachmentMessage = AgentCustomMessageOf<"ishiki.attachment">;
export type FactMessage = AgentCustomMessageOf<"ishiki.message.created">;

type AssetStore = Pick<ResourceCenter, "store">["store"];

const TYPE_HINTS: Record<string, string> = { img: "image/*", image: "image/*", audio: "audio/*", video: "video/*" };
const ASSET_ID = /^asset:\/\/([0-9a-f]{32})$/;
const PLATFORM_SUFFIX = "#attachments";

/** The id of a fact's platform record (04 EX-36): the projected message keeps it. */
export function platformRecordId(factMessageId: string): string {
  return `${factMessageId}${PLATFORM_SUFFIX}`;
}

/** The fact message id a platform record belongs to. */
export function platformRecordFact(recordId: string): string {
  return recordId.endsWith(PLATFORM_SUFFIX) ? recordId.slice(0, -PLATFORM_SUFFIX.length) : recordId;
}

function declaredItem(medium: FactMedium, metadata: Awaited<ReturnType<AssetStore["metadata"]>>): IshikiAttachmentItem {
  const item: IshikiAttachmentItem = {
    url: medium.url,
    mediaType: metadata?.mediaType ?? TYPE_HINTS[medium.element] ?? "application/octet-stream",
    // Inbound media are fetched lazily (KP-27): until then the size is unknown (0, shown as "size unknown").
    size: metadata?.byteLength ?? 0,
    lifetime: "once",
    immutable: true,
  };
  const filename = metadata?.filename ?? medium.filename;
  if (filename !== undefined) item.filename = filename;
  if (metadata?.width !== undefined && metadata?.height !== undefined) Object.assign(item, { width: metadata.width, height: metadata.height });
  return item;
}

/**
 * The platform record of a fact with `asset://` media (04 EX-17, seed 000: records are written by the runtime),
 * built when the fact is ingested and persisted in the same write, right after it. It holds references and
 * what the store knows of each asset then; nothing is fetched. `undefined` for a fact without media.
 */
export async function platformRecord(fact: FactMessage, store: AssetStore): Promise<AttachmentMessage | undefined> {
  const media = factMedia(fact.data);
  if (media.length === 0) return undefined;
  const items: IshikiAttachmentItem[] = [];
  for (const medium of media) {
    const id = ASSET_ID.exec(medium.url)?.[1];
    items.push(declaredItem(medium, id === undefined ? undefined : await store.metadata("asset", id)));
  }
  const { platform, selfId, channelId, messageId } = fact.data;
  return {
    id: platformRecordId(fact.id),
    timestamp: fact.timestamp,
    role: "custom",
    type: "ishiki.attachment",
    data: { source: "platform", platform, selfId, channelId, messageId, items },
  };
}

/**
 * What projection shows of stored platform records: the items completed with what the store learnt since
 * ingestion (with image input on, the asset is fetched, so type, size and dimensions are known), and the
 * record's origin from its fact. Each record is completed once and reused, so its text stays stable across
 * requests; one whose fetch failed is completed again next time. The stored record is never rewritten.
 */
export class PlatformRecords {
  private readonly cache = new Map<string, { message: AttachmentMessage; complete: boolean }>();
  /** Record message id → `message #<id> from <Name>(<userId>)`. */
  readonly origins = new Map<string, string>();

  constructor(
    private readonly resources: Pick<ResourceCenter, "store">,
    private readonly imageInput: boolean,
  ) {}

  async complete(record: AttachmentMessage, fact: FactMessage): Promise<AttachmentMessage> {
    const cached = this.cache.get(record.id);
    if (cached?.complete) return cached.message;
    let complete = true;
    const items: IshikiAttachmentItem[] = [];
    for (const item of record.data.items) {
      const known = await this.item(item);
      if (known.size === 0) complete = false;
      items.push(known);
    }
    const message: AttachmentMessage = { ...record, data: { ...record.data, items } };
    this.cache.set(record.id, { message, complete: complete || !this.imageInput });
    this.origins.set(record.id, origin(fact.data));
    return message;
  }

  private async item(stored: IshikiAttachmentItem): Promise<IshikiAttachmentItem> {
    const id = ASSET_ID.exec(stored.url)?.[1];
    if (id === undefined) return stored;
    let metadata = await this.resources.store.metadata("asset", id);
    let dimensions: { width?: number; height?: number } = { width: metadata?.width ?? stored.width, height: metadata?.height ?? stored.height };
    if (this.imageInput) {
      try {
        const read = await this.resources.store.readAsset(id);
        metadata = read.metadata;
        const header = probeImage(read.bytes);
        if (header?.width !== undefined) dimensions = { width: header.width, height: header.height };
      } catch {
        // Left unfetched: selection defers the item as unavailable and the record is completed again next time.
      }
    }
    const item: IshikiAttachmentItem = { ...stored, mediaType: metadata?.mediaType ?? stored.mediaType, size: metadata?.byteLength ?? stored.size };
    const filename = metadata?.filename ?? stored.filename;
    if (filename !== undefined) item.filename = filename;
    if (dimensions.width !== undefined && dimensions.height !== undefined) Object.assign(item, dimensions);
    return item;
  }
}

function origin(fact: IshikiMessageCreated): string {
  return `message #${fact.messageId} from ${fact.user.name ? `${fact.user.name}(${fact.user.id})` : fact.user.id}`;
}
