import h from "@satorijs/element";
import type { IshikiMessageCreated, IshikiMessageDeleted } from "../types/index.js";

const MEDIA_ELEMENTS = "img,image,audio,video,file";

/** One medium of a fact: its `asset://` URL and the element that carried it. */
export interface FactMedium {
  url: string;
  element: string;
  filename?: string;
}

/** The `asset://` media of a fact's content, in document order (04 EX-17). */
export function factMedia(fact: IshikiMessageCreated): FactMedium[] {
  if (!fact.content.includes("asset://")) return [];
  const media: FactMedium[] = [];
  for (const element of h.select(h.parse(fact.content), MEDIA_ELEMENTS)) {
    const src = element.attrs.src;
    if (typeof src !== "string" || !src.startsWith("asset://")) continue;
    const name = element.attrs.filename ?? element.attrs.file;
    media.push(typeof name === "string" && name !== "" ? { url: src, element: element.type, filename: name } : { url: src, element: element.type });
  }
  return media;
}

/** `(platform, selfId, channelId, messageId)`: what a retraction names (04 EX-26). */
export function factIdentity(fact: IshikiMessageCreated | IshikiMessageDeleted): string {
  return JSON.stringify([fact.platform, fact.selfId, fact.channelId, fact.messageId]);
}
