import type { z } from "zod";
import type { ValidatedBlock } from "../block-validation.js";

/**
 * Validates a built-in variant's block with a zod object schema (spec 06 EN-5): missing keys take their
 * defaults, an invalid value throws `<family>.<name>.<path>: <reason>`, unknown keys become warnings.
 */
export function validateWithZod(prefix: string, schema: z.ZodObject, block: unknown): ValidatedBlock {
  const input = block ?? {};
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue.path.length === 0 ? prefix : `${prefix}.${issue.path.join(".")}`;
    throw new Error(`${path}: ${issue.message}`);
  }
  const known = new Set(Object.keys(schema.shape));
  const warnings = typeof input === "object" && input !== null ? Object.keys(input).filter((key) => !known.has(key)).map((key) => `${prefix}.${key}: unknown key ignored`) : [];
  return { value: result.data, warnings };
}
