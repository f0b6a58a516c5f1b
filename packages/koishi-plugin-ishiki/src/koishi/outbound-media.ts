import h from "@satorijs/element";
import type { ResourceCenter } from "../resources/index.js";

const MEDIA = new Set(["img", "image", "audio", "video", "file"]);
const PASSING = new Set(["http", "https", "data"]);

export interface DroppedMedia {
  src: string;
  code: string;
}

/**
 * Media of an outgoing message (spec 08 KP-31): a `src` on a scheme of the runtime's center is resolved there to
 * `data:<mediaType>;base64,…` (platforms cannot read `asset://`); other `http(s):` and `data:` sources pass;
 * `file:` and unknown schemes are removed and reported. `content` is empty when nothing is left to send.
 */
export async function resolveOutboundMedia(content: string, center: ResourceCenter): Promise<{ content: string; dropped: DroppedMedia[] }> {
  const dropped: DroppedMedia[] = [];
  const schemes = new Set(center.listSchemes());
  const rewrite = async (elements: h[]): Promise<h[]> => {
    const out: h[] = [];
    for (const element of elements) {
      const src = element.attrs.src;
      if (!MEDIA.has(element.type) || typeof src !== "string") {
        out.push(element.children.length === 0 ? element : h(element.type, element.attrs, await rewrite(element.children)));
        continue;
      }
      const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(src)?.[1]?.toLowerCase() ?? "";
      if (schemes.has(scheme)) {
        try {
          out.push(h(element.type, { ...element.attrs, src: await dataUrl(center, src) }, element.children));
        } catch (error) {
          dropped.push({ src, code: (error as { code?: string }).code ?? "unresolvable" });
        }
      } else if (PASSING.has(scheme)) {
        out.push(element);
      } else {
        dropped.push({ src, code: scheme === "file" ? "file_scheme" : "unsupported_scheme" });
      }
    }
    return out;
  };
  const elements = await rewrite(h.parse(content));
  const text = elements.join("");
  const empty = elements.every((element) => element.type === "text" && String(element.attrs.content ?? "").trim() === "");
  return { content: empty ? "" : text, dropped };
}

async function dataUrl(center: ResourceCenter, src: string): Promise<string> {
  const payload = await center.resolve(src);
  if (payload.type === "file") return `data:${payload.mediaType};base64,${Buffer.from(payload.bytes).toString("base64")}`;
  return `data:${payload.mediaType ?? "text/plain"};base64,${Buffer.from(payload.text, "utf8").toString("base64")}`;
}
