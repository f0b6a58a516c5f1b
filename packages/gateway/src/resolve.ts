import { NoSuchModelError } from "@ai-sdk/provider";
import type { LanguageModelV4, ProviderV4 } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import type { ModelType, ReasoningLevel } from "./config.js";
import { GatewayError } from "./errors.js";
import { withDeadlines } from "./model-deadlines.js";
import type { ModelEntry } from "./model-entry.js";
import { parseReference } from "./reference.js";
import type { BuiltProvider, GatewayState } from "./state.js";

export type ModelKind = "languageModel" | "embeddingModel" | "imageModel" | "speechModel" | "transcriptionModel" | "rerankingModel";

const TYPE_OF: Record<ModelKind, ModelType> = {
  languageModel: "language",
  embeddingModel: "embedding",
  imageModel: "image",
  speechModel: "speech",
  transcriptionModel: "transcription",
  rerankingModel: "reranking",
};

type Built<K extends ModelKind> = ReturnType<NonNullable<ProviderV4[K]>>;

export function lookupProvider(state: GatewayState, id: string, ref: string): BuiltProvider {
  const provider = state.providers.get(id);
  if (provider) return provider;
  const broken = state.broken.get(`providers.${id}`);
  if (broken) throw broken;
  const registered = [...state.providers.keys()].join(", ") || "none";
  throw new GatewayError(`Unknown provider "${id}" (from "${ref}"); registered: ${registered}`);
}

function isDeclared(state: GatewayState, provider: string, model: string): boolean {
  return state.providers.get(provider)?.entries?.has(model) ?? false;
}

/** The declared entry of a reference, if any; never throws (`Gateway.model`). */
export function lookupEntry(state: GatewayState, ref: string): ModelEntry | undefined {
  if (ref.indexOf(":") <= 0) return undefined;
  const { provider, model } = parseReference(ref, (p, m) => isDeclared(state, p, m));
  return state.providers.get(provider)?.entries?.get(model);
}

function withLevel(model: LanguageModelV4, level: ReasoningLevel): LanguageModelV4 {
  return wrapLanguageModel({
    model,
    middleware: { specificationVersion: "v4", transformParams: async ({ params }) => ({ ...params, reasoning: level }) },
  });
}

/**
 * Builds the SDK model a reference names (spec 02 GW-12, GW-25). Only language models take a `:level`
 * suffix; a model declaring `thinking.efforts` accepts only those levels. Language models carry the call
 * deadlines of their `timeouts` (model over provider over the defaults).
 */
export function resolveModel<K extends ModelKind>(state: GatewayState, ref: string, kind: K): { model: Built<K>; entry?: ModelEntry } {
  const parsed = parseReference(ref, (p, m) => isDeclared(state, p, m));
  const modelId = kind === "languageModel" ? parsed.model : ref.slice(ref.indexOf(":") + 1);
  const level = kind === "languageModel" ? parsed.level : undefined;
  const provider = lookupProvider(state, parsed.provider, ref);
  const entry = provider.entries?.get(modelId);
  if (provider.entries && !entry) throw new GatewayError(`Provider "${provider.id}" does not declare "${modelId}"`);
  if (entry && entry.type !== TYPE_OF[kind]) {
    throw new GatewayError(`Model "${modelId}" is declared as ${entry.type}, not ${TYPE_OF[kind]}`);
  }
  const efforts = entry?.metadata.thinking?.efforts;
  if (level && efforts && !efforts.includes(level)) {
    throw new GatewayError(`"${ref}": level "${level}" is not declared; thinking.efforts allows ${efforts.join(", ") || "none"}`);
  }
  const factory = provider.sdk[kind] as ((id: string) => Built<K>) | undefined;
  const servesNone = new GatewayError(`Provider "${provider.id}" serves no ${kind}`);
  if (typeof factory !== "function") throw servesNone;
  let model: Built<K>;
  try {
    model = factory.call(provider.sdk, modelId);
  } catch (error) {
    if (NoSuchModelError.isInstance(error)) throw servesNone;
    const { name, message } = error as Error;
    throw new GatewayError(`"${ref}" could not be built: ${name}: ${message}`, { cause: error });
  }
  if (kind !== "languageModel") return { model, entry };
  const leveled = level ? withLevel(model as LanguageModelV4, level) : (model as LanguageModelV4);
  const timeouts = { ...provider.timeouts, ...entry?.metadata.timeouts };
  return { model: withDeadlines(leveled, `${provider.id}:${modelId}`, timeouts) as Built<K>, entry };
}
