import { Buffer } from "node:buffer";
import { tool } from "ai";
import type { ResourceCenter, ResourcePayload } from "../resources/index.js";
import { readInputSchema, readResultSchema, type ReadInput, type ReadResult } from "./read-schema.js";

export interface ReadToolOptions {
  /** Profile `resources.imageInput`: direct calls then accept `lifetime`. */
  imageInput?: boolean;
  /** The variant codemode programs call: `{ url }` only, always the complete text (RS-32, RS-33). */
  sandbox?: boolean;
}

const DIRECT_DESCRIPTION = [
  "Read a resource by URL: asset:// (media from messages), artifact:// (stored tool output), local:// (files in your home) and schemes extensions add.",
  "Text is shown in pages of at most 2000 lines and 30,000 characters; a cut page ends with a `Continue: read({url: \"…#offset=N\"})` line: call exactly that to read on.",
  "Select lines with <url>:A-B, <url>:A+N (N lines from A) or <url>:A (to the end); ?view=meta shows metadata without loading bytes; a directory URL lists its entries.",
  "Media (images, audio, files) are attached for you to see or passed on by URL.",
].join(" ");

const SANDBOX_DESCRIPTION = [
  "Read a resource by URL (asset://, artifact://, local:// and extension schemes).",
  "Returns the complete selected text ({ type: 'text', text, source }) or the bytes as base64 ({ type: 'file', data, mediaType }).",
  "Select lines with <url>:A-B, <url>:A+N or <url>:A; ?view=meta gives metadata only.",
].join(" ");

/** The JSON-safe raw result of a resolved payload (RS-33). */
export function toReadResult(payload: ResourcePayload): ReadResult {
  if (payload.type === "text") {
    const { url, text, size, mediaType, filename, source } = payload;
    return omitUndefined({ type: "text", url, text, size, mediaType, filename, source: source && { ...source } });
  }
  const { url, bytes, mediaType, size, filename, immutable } = payload;
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
  return omitUndefined({ type: "file", url, data, mediaType, size, filename, immutable });
}

/** Handlers may return extra or undefined fields; the raw result carries exactly the documented ones. */
function omitUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/**
 * The `read` tool over one runtime's center. `execute` returns the raw result; the model's display (pages with
 * continuations, media as attachments) comes from the unified exit, which pages text with `pageText`
 * (resources/page.ts). Direct calls fetch only the first page of FileScheme text; programs (the sandbox
 * variant, or a call marked `caller: "codemode"`) get the complete text. Failures throw `ResourceError`.
 */
export function createReadTool(resources: Pick<ResourceCenter, "resolve">, options: ReadToolOptions = {}) {
  const sandbox = options.sandbox === true;
  return tool<ReadInput, ReadResult, {}>({
    description: sandbox ? SANDBOX_DESCRIPTION : DIRECT_DESCRIPTION,
    inputSchema: readInputSchema(!sandbox && options.imageInput === true),
    outputSchema: readResultSchema,
    async execute(input, execution) {
      const program = sandbox || (execution as { caller?: unknown }).caller === "codemode";
      const payload = await resources.resolve(input.url, { signal: execution.abortSignal, firstPage: !program });
      return toReadResult(payload);
    },
  });
}
