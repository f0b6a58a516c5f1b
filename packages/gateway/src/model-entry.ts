import type { ModelConfig, ModelType } from "./config.js";

/** The declared fields of a model other than `id` and `type`, as written (GW-10). */
export type ModelMetadata = Omit<ModelConfig, "id" | "type">;

/** A declared model as listed by `Gateway.models()`. */
export interface ModelEntry {
  /** `provider:model`. */
  ref: string;
  provider: string;
  id: string;
  type: ModelType;
  metadata: ModelMetadata;
}

/**
 * Entries of one provider in declaration order; a repeated id keeps its first position and takes the last
 * declaration's values (GW-10), which is exactly how a `Map` behaves on `set`.
 */
export function modelEntries(provider: string, models: readonly ModelConfig[]): Map<string, ModelEntry> {
  const entries = new Map<string, ModelEntry>();
  for (const { id, type, ...metadata } of models) {
    entries.set(id, { ref: `${provider}:${id}`, provider, id, type: type ?? "language", metadata });
  }
  return entries;
}
