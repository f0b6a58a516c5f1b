import { z } from "zod";

/** Longest program accepted, in UTF-16 units (spec 05 CT-1). */
export const MAX_PROGRAM_LENGTH = 100_000;

/** Input of the `codemode` tool: one program, no other keys (CT-1). */
export const codemodeInputSchema = z.strictObject({
  js: z
    .string()
    .min(1)
    .max(MAX_PROGRAM_LENGTH)
    .describe("JavaScript (TypeScript annotations allowed) with top-level await and return"),
});

export type CodemodeInput = z.infer<typeof codemodeInputSchema>;
