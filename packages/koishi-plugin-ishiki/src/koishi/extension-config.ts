import type { Extension } from "../extension/index.js";

/**
 * Validates `extends.<name>.config` with the extension's `Schema` (spec 07 XA-3); without one the config passes
 * as is. Throws `extension "<name>" config invalid: <path>: <reason>`.
 */
export function validateExtensionConfig(name: string, service: Extension, config: unknown): unknown {
  const schema = service.Schema;
  if (schema === undefined) return config;
  try {
    return schema(config);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // schemastery reports `$.a.b expected …`; the path without `$.` reads like the profile key.
    const match = /^\$\.?(\S*)\s+(.*)$/s.exec(text);
    const [path, reason] = match ? [match[1] || "config", match[2]] : ["config", text];
    throw new Error(`extension "${name}" config invalid: ${path}: ${reason}`);
  }
}
