import { z } from "zod";

/** `wait` input (spec 06 EN-46); at least one of `seconds` and `message: true` is checked by the tool. */
export const waitInputSchema = z.object({
  seconds: z.number().int().min(1).max(86_400).optional().describe("Wake me after this many seconds (1-86400)."),
  message: z.boolean().optional().describe("Wake me when the next message arrives."),
  note: z.string().max(500).optional().describe("A note shown to you when the wait ends."),
});

export type WaitInput = z.infer<typeof waitInputSchema>;

export const waitResultSchema = z.object({
  ok: z.literal(true),
  armed: z.object({ seconds: z.number().optional(), message: z.boolean().optional(), firesAt: z.string().optional() }),
  replaced: z.boolean(),
});

export type WaitResult = z.infer<typeof waitResultSchema>;
