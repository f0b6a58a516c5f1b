import type { GatewayConfigSource } from "./config.js";
import { parseSections } from "./config-schema.js";
import { GatewayError } from "./errors.js";
import type { GatewayConfigInput } from "./gateway.js";

/** Raw entries by id after merging; `errors` holds the sections and ids that were left out. */
export interface MergedConfig {
  providers: Map<string, unknown>;
  groups: Map<string, unknown>;
  errors: Map<string, GatewayError>;
}

function sourcesOf(input: GatewayConfigInput): readonly GatewayConfigSource[] {
  return Array.isArray(input) ? input : [{ name: "models", config: input as GatewayConfigSource["config"] }];
}

/**
 * Merges sources by provider id and group name (spec 02 GW-2). An id defined in two sources is an error
 * naming both and is left out entirely, so nothing silently picks one of them.
 */
export function mergeSources(input: GatewayConfigInput): MergedConfig {
  const merged: MergedConfig = { providers: new Map(), groups: new Map(), errors: new Map() };
  const origin = new Map<string, string>();
  for (const source of sourcesOf(input)) {
    let sections: ReturnType<typeof parseSections>;
    try {
      sections = parseSections(source.config, source.name);
    } catch (error) {
      merged.errors.set(source.name, error as GatewayError);
      continue;
    }
    for (const [kind, entries] of [["providers", sections.providers], ["groups", sections.groups]] as const) {
      for (const [id, value] of Object.entries(entries)) {
        const key = `${kind}.${id}`;
        const first = origin.get(key);
        if (first === undefined) {
          origin.set(key, source.name);
          merged[kind].set(id, value);
        } else if (!merged.errors.has(key)) {
          merged[kind].delete(id);
          merged.errors.set(key, new GatewayError(`${key}: defined in ${first} and in ${source.name}; keep one of them`));
        }
      }
    }
  }
  return merged;
}
