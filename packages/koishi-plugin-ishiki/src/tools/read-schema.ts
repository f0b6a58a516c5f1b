import { z } from "zod";

export const READ_LIFETIMES = ["once", "recent", "retain"] as const;

const sourceSchema = z.object({
  kind: z.literal("file"),
  url: z.string(),
  range: z.object({ start: z.number(), end: z.number().optional() }).optional(),
  offset: z.number().optional(),
  selectedEnd: z.number().optional(),
  totalLines: z.number(),
  totalChars: z.number(),
});

const textResultSchema = z.object({
  type: z.literal("text"),
  url: z.string(),
  text: z.string().describe("the complete selected text"),
  size: z.number().describe("UTF-8 bytes"),
  mediaType: z.string().optional(),
  filename: z.string().optional(),
  source: sourceSchema.optional(),
});

const fileResultSchema = z.object({
  type: z.literal("file"),
  url: z.string(),
  data: z.string().describe("base64 of the bytes"),
  mediaType: z.string(),
  size: z.number().describe("bytes"),
  filename: z.string().optional(),
  immutable: z.boolean(),
});

/** The raw result of `read` (RS-33): JSON-safe, the same for text-only and vision models. */
export const readResultSchema = z.discriminatedUnion("type", [textResultSchema, fileResultSchema]);
export type ReadResult = z.infer<typeof readResultSchema>;
export type ReadTextResult = z.infer<typeof textResultSchema>;
export type ReadFileResult = z.infer<typeof fileResultSchema>;

const url = z.string().min(1).describe("resource URL, e.g. local://notes.txt:1-50 or asset://<id>");

/** Direct calls take `lifetime` only with image input on; the sandbox variant takes `url` alone (RS-32). */
export function readInputSchema(acceptsLifetime: boolean) {
  return acceptsLifetime
    ? z.strictObject({
        url,
        lifetime: z.enum(READ_LIFETIMES).optional().describe("how long media stay attached: once (default), recent or retain"),
      })
    : z.strictObject({ url });
}

export type ReadInput = { url: string; lifetime?: (typeof READ_LIFETIMES)[number] };
