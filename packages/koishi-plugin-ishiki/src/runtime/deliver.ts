import h from "@satorijs/element";
import type { AssetDeclaration, ResourceCenter } from "../resources/index.js";
import type { IshikiEvent, IshikiMessageCreated } from "../types/index.js";

const MEDIA_HINTS: Record<string, string | undefined> = { img: "image/*", image: "image/*", audio: "audio/*", video: "video/*", file: undefined };

/**
 * Captures a fact's media as assets (spec 07 XA-16, 08 KP-27): `img`/`audio`/`video`/`file` elements with a
 * `src` are registered (never fetched here) and their `src` rewritten to `asset://<id>`; `asset://` sources are
 * kept. Other events pass unchanged.
 */
export async function captureMedia(event: IshikiEvent, resources: Pick<ResourceCenter, "store">): Promise<IshikiEvent> {
  if (event.type !== "ishiki.message.created") return event;
  const fact = event.data;
  let changed = false;
  const rewrite = async (elements: h[]): Promise<h[]> => {
    const out: h[] = [];
    for (const element of elements) {
      const src = element.attrs.src;
      if (element.type in MEDIA_HINTS && typeof src === "string" && src !== "" && !src.startsWith("asset://")) {
        const url = await resources.store.registerAsset(src, declaration(element, fact));
        out.push(h(element.type, { ...element.attrs, src: url }, await rewrite(element.children)));
        changed = true;
      } else {
        out.push(element.children.length === 0 ? element : h(element.type, element.attrs, await rewrite(element.children)));
      }
    }
    return out;
  };
  const content = await rewrite(h.parse(fact.content));
  if (!changed) return event;
  return { ...event, data: { ...fact, content: content.join("") } };
}

function declaration(element: h, fact: IshikiMessageCreated): AssetDeclaration {
  const { src: _src, file, filename, ...rest } = element.attrs as Record<string, unknown>;
  const out: AssetDeclaration = {
    sourceInfo: { platform: fact.platform, channelId: fact.channelId, messageId: fact.messageId, element: element.type, ...rest },
  };
  const hint = MEDIA_HINTS[element.type];
  if (hint !== undefined) out.mediaType = hint;
  const name = filename ?? file;
  if (typeof name === "string" && name !== "") out.filename = name;
  return out;
}
