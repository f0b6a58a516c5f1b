import { Ajv, type ValidateFunction } from "ajv";
import type { CatalogSchema } from "./catalog/catalog-entry.js";

// The catalog's schemas are hand-written for models as much as for validation: `strict: false` lets an annotation
// ajv does not know pass instead of failing the action.
const ajv = new Ajv({ strict: false, allErrors: false });
const compiled = new WeakMap<CatalogSchema, ValidateFunction>();

/**
 * Checks an action's params against its catalog schema; returns the first problem as `params<path>: <reason>`.
 * Unknown properties pass unless the schema forbids them: implementations accept extra parameters.
 */
export function checkParams(schema: CatalogSchema, value: unknown): string | undefined {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  if (validate(value)) return undefined;
  const [error] = validate.errors ?? [];
  if (!error) return "params: invalid";
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  const path = `params${error.instancePath.replace(/\/([^/]*)/g, (_, segment: string) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))}`;
  return missing === undefined ? `${path}: ${error.message}` : `${path}.${missing}: required`;
}
