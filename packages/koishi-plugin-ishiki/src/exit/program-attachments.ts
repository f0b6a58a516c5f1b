import type { IshikiAttachmentLifetime } from "../types/index.js";
import { isRecord, mediaNode, type MediaData } from "./media-node.js";

const LIFETIMES: readonly string[] = ["once", "recent", "retain"];

/** Archives one declared item with its lifetime and returns its marker. */
export type ProgramItemArchiver = (media: Exclude<MediaData, { kind: "text" }>, lifetime: IshikiAttachmentLifetime) => Promise<string>;

function attachmentError(reason: string): string {
  return `[attachment error: ${reason}]`;
}

/** The media of one `attachments[]` item (05 EX-13), or the reason it is invalid. */
function itemMedia(item: unknown): Exclude<MediaData, { kind: "text" }> | string {
  if (typeof item === "string") return { kind: "url", url: item };
  if (!isRecord(item)) return "expected an object or a resource URL string";
  if (item.type === "resource_link") return typeof item.uri === "string" ? { kind: "url", url: item.uri } : "resource_link needs a string uri";
  if (item.type === undefined && typeof item.url === "string") return { kind: "url", url: item.url };
  const media = mediaNode(item);
  if (!media) return "unsupported item; expected an MCP image or audio item, a read file result, an embedded resource with blob, or a resource URL";
  if (media.kind === "text") return "a text resource is not media; return its text outside attachments";
  return media;
}

/**
 * A program's final return (05 EX-12 .. EX-15): only the top-level `attachments` array declares media; each
 * item is archived and replaced by its marker, an invalid one by `[attachment error: <reason>]` (the call still
 * succeeds). Everything else stays plain JSON, never searched. Returns the value to display.
 */
export async function replaceProgramAttachments(value: unknown, archive: ProgramItemArchiver): Promise<unknown> {
  if (!isRecord(value) || !Array.isArray(value.attachments)) return value;
  const markers: string[] = [];
  for (const item of value.attachments) {
    const lifetime = isRecord(item) ? item.lifetime : undefined;
    if (lifetime !== undefined && !LIFETIMES.includes(lifetime as string)) {
      markers.push(attachmentError("lifetime must be once, recent or retain"));
      continue;
    }
    const media = itemMedia(item);
    markers.push(typeof media === "string" ? attachmentError(media) : await archive(media, (lifetime as IshikiAttachmentLifetime | undefined) ?? "once"));
  }
  return { ...value, attachments: markers };
}
