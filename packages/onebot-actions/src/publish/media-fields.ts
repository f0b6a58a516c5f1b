/** Segment types whose `data.file` carries media (OB-18). */
const MEDIA_SEGMENTS = new Set(["image", "record", "video", "file"]);

export type FileRewrite = (value: string) => Promise<string>;

const CQ_MEDIA = /\[CQ:(image|record|video|file)((?:,[^\]]*)?)\]/g;

function unescapeCq(value: string): string {
  return value.replace(/&#44;/g, ",").replace(/&#91;/g, "[").replace(/&#93;/g, "]").replace(/&amp;/g, "&");
}

function escapeCq(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/\[/g, "&#91;").replace(/\]/g, "&#93;").replace(/,/g, "&#44;");
}

async function rewriteCq(text: string, rewrite: FileRewrite): Promise<string> {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(CQ_MEDIA)) {
    const args = await Promise.all(
      match[2]
        .split(",")
        .slice(1)
        .map(async (pair) => (pair.startsWith("file=") ? `file=${escapeCq(await rewrite(unescapeCq(pair.slice(5))))}` : pair)),
    );
    out += text.slice(last, match.index) + `[CQ:${match[1]}${args.map((arg) => `,${arg}`).join("")}]`;
    last = match.index + match[0].length;
  }
  return out + text.slice(last);
}

/** A message in array or CQ-string form with the `file` of every media segment rewritten; forward nodes are walked. */
export async function rewriteMessage(message: unknown, rewrite: FileRewrite): Promise<unknown> {
  if (typeof message === "string") return rewriteCq(message, rewrite);
  if (!Array.isArray(message)) return message;
  return Promise.all(
    message.map(async (segment: unknown) => {
      const { type, data } = (segment ?? {}) as { type?: unknown; data?: Record<string, unknown> };
      if (!data || typeof data !== "object") return segment;
      if (typeof type === "string" && MEDIA_SEGMENTS.has(type) && typeof data.file === "string") return { ...(segment as object), data: { ...data, file: await rewrite(data.file) } };
      if (type === "node" && data.content !== undefined) return { ...(segment as object), data: { ...data, content: await rewriteMessage(data.content, rewrite) } };
      return segment;
    }),
  );
}

/** Params with `mediaParams` (top-level JSON pointers) and the `message`/`messages` segments rewritten. */
export async function rewriteMediaParams(params: Record<string, unknown>, mediaParams: readonly string[], rewrite: FileRewrite): Promise<Record<string, unknown>> {
  const next = { ...params };
  for (const pointer of mediaParams) {
    const key = pointer.slice(1);
    if (typeof next[key] === "string") next[key] = await rewrite(next[key]);
  }
  for (const key of ["message", "messages"]) if (next[key] !== undefined) next[key] = await rewriteMessage(next[key], rewrite);
  return next;
}
