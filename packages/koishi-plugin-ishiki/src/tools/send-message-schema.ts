import { z } from "zod";

const messages = z
  .array(z.string().trim().min(1))
  .min(1)
  .max(20)
  .describe("The messages to send, in order; each becomes one platform message.");
const mode = z.enum(["element", "raw"]).optional().describe("`element` (default): messages are element markup; `raw`: literal text.");
const keepGoing = z.boolean().optional().describe("true keeps your turn going after sending; default false.");

export const sendMessageInputSchema = z.object({ messages, mode, continue: keepGoing });

/** Cross mode: the target is required (spec 08 KP-30). */
export const crossSendMessageInputSchema = sendMessageInputSchema.extend({
  target: z.strictObject({ sid: z.string().describe("`platform:selfId`"), channelId: z.string() }),
});

export type SendMessageInput = z.infer<typeof sendMessageInputSchema> & { target?: { sid: string; channelId: string } };

const droppedMedia = z.object({ src: z.string(), code: z.string() });
const dropped = z.array(droppedMedia).optional().describe("Media sources removed from your messages, with the reason code.");

/** A media source `send_message` removed instead of sending (KP-31): `file_scheme`, `unsupported_scheme`, … */
export type DroppedMedia = z.infer<typeof droppedMedia>;

/** Success and failure shapes (KP-32). */
export const sendMessageResultSchema = z.union([
  z.object({ ok: z.literal(true), ids: z.array(z.string()), dropped }),
  z.object({
    ok: z.literal(false),
    error: z.object({ name: z.string(), message: z.string() }),
    sent: z.array(z.string()),
    failedAt: z.number(),
    dropped,
  }),
]);

export type SendMessageResult = z.infer<typeof sendMessageResultSchema>;
