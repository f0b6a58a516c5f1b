/** The outcome of checking a built-in variant's config block: the block with defaults, plus warnings. */
export interface ValidatedBlock {
  value: unknown;
  warnings: string[];
}

/**
 * Marks a built-in variant that validates its block at activation (spec 06 EN-5). Throws
 * `<family>.<name>.<key>: <reason>` for an invalid block; unknown keys come back as warnings. Custom variants
 * do not implement it and receive their block as written.
 */
export const validateBlock = Symbol.for("ishiki.engine.validateBlock");

export interface ValidatingEngine {
  [validateBlock](block: unknown): ValidatedBlock;
}

export function isValidatingEngine(value: unknown): value is ValidatingEngine {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as Partial<ValidatingEngine>)[validateBlock] === "function";
}
