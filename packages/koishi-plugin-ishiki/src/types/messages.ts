// Ishiki's custom messages and entries (spec 01 AG-2, AG-4), declared by augmenting the agent core's maps.
import type { AgentCustomMessageOf } from "@yesimagent/core";

/** The author of a platform message. */
export interface IshikiUser {
  id: string;
  name: string;
}

/** A platform message as stored in the fact stream (`content` is element markup, media `src` as `asset://`). */
export interface IshikiMessageCreated {
  timestamp: number;
  platform: string;
  selfId: string;
  channelId: string;
  guildId?: string;
  isDirect: boolean;
  messageId: string;
  content: string;
  user: IshikiUser;
  quote?: { id: string; content: string; user?: IshikiUser; channelId?: string; guildId?: string };
}

/** A retraction of a platform message. */
export interface IshikiMessageDeleted {
  timestamp: number;
  platform: string;
  selfId: string;
  channelId: string;
  messageId: string;
  userId?: string;
  operatorId?: string;
}

/** How long an attachment item stays in the model's view (04 EX-21 .. EX-24). */
export type IshikiAttachmentLifetime = "once" | "recent" | "retain";

/** One media item of an attachment record: references only, never bytes (04 EX-18). */
export interface IshikiAttachmentItem {
  url: string;
  mediaType: string;
  size: number;
  filename?: string;
  width?: number;
  height?: number;
  lifetime: IshikiAttachmentLifetime;
  immutable: boolean;
}

/**
 * An attachment record (04 EX-17), written by the runtime and persisted. A tool record follows the step's tool
 * batch (EX-19). A platform record is written when a fact with `asset://` media is ingested, in the same write
 * right after it, with id `<fact id>#attachments` and the fact's timestamp (EX-36); its items hold what the
 * store knew then (`size` 0 until the asset is fetched). Projection reads both kinds alike; delivery state is
 * persisted with the successful response (`ishiki.delivery`) and kept across restarts (seed 000).
 */
export type IshikiAttachment =
  | { source: "tool"; toolName: string; toolCallId: string; items: IshikiAttachmentItem[] }
  | { source: "platform"; platform: string; selfId: string; channelId: string; messageId: string; items: IshikiAttachmentItem[] };

/** One tool as a catalog update announces it (05 CT-33). */
export interface IshikiCatalogTool {
  name: string;
  description: string;
  signature?: string;
}

/** A toolsearch catalog update; `text` is exactly what the model sees as a user message (05 CT-33). */
export interface IshikiToolsCatalog {
  version: 1;
  kind: "baseline" | "delta";
  mode: "codemode" | "direct";
  added: IshikiCatalogTool[];
  removed: string[];
  visible: string[];
  text: string;
}

/** A compaction summary covering the stream up to `lastEntryId` (06 EN-9). */
export interface IshikiCompact {
  summary: string;
  lastEntryId: string;
}

/** What one persisted step did with each attachment item (04 EX-31). */
export interface IshikiDelivery {
  turnId: string;
  stepNumber: number;
  items: Array<{ key: string; url: string; outcome: "shown" | "terminal" | "released"; decision?: string }>;
}

declare module "@yesimagent/core" {
  interface AgentCustomMessage {
    "ishiki.message.created": IshikiMessageCreated;
    "ishiki.message.deleted": IshikiMessageDeleted;
    "ishiki.attachment": IshikiAttachment;
    "ishiki.tools.catalog": IshikiToolsCatalog;
  }
}

declare module "@yesimagent/core" {
  interface AgentCustomEntry {
    "ishiki.compact": IshikiCompact;
    "ishiki.delivery": IshikiDelivery;
  }
}

export type IshikiEventType = "ishiki.message.created" | "ishiki.message.deleted" | "ishiki.attachment" | "ishiki.tools.catalog";

/** The four Ishiki custom messages (AG-4). */
export type IshikiEvent = AgentCustomMessageOf<IshikiEventType>;
