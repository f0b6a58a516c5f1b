import type {
  EmbeddingModelV4,
  ImageModelV4,
  LanguageModelV4,
  ProviderV4,
  RerankingModelV4,
  SpeechModelV4,
  TranscriptionModelV4,
} from "@ai-sdk/provider";
import type { FetchFunction } from "@ai-sdk/provider-utils";
import type { ApiFactory } from "./api.js";
import type { FailoverConfig, GatewayConfig, GatewayConfigSource, ModelType } from "./config.js";
import type { GatewayError } from "./errors.js";
import type { GatewayLogger } from "./logger.js";
import type { ModelEntry } from "./model-entry.js";
import type { ModelGroup } from "./model-group.js";

/** A single configuration, or several named sources merged by id (spec 02 GW-1, GW-2). */
export type GatewayConfigInput = GatewayConfig | readonly GatewayConfigSource[];

export interface CreateGatewayOptions {
  config?: GatewayConfigInput;
  /** Extra dialects by name, alongside the four built-ins. */
  apis?: Record<string, ApiFactory>;
  /** The fetch every provider uses; `globalThis.fetch` by default. */
  fetch?: FetchFunction;
  /** Where `${NAME}` is looked up; `process.env` by default. */
  env?: Record<string, string | undefined>;
  logger?: GatewayLogger;
  /** When set, every model HTTP exchange is written here (`dumpRequests`, GW-28). */
  dumpDir?: string;
}

export interface ProviderSummary {
  id: string;
  api: string;
}

export interface ProfileModelOptions {
  failover?: FailoverConfig;
  /** Receives the failover lines (GW-30); the gateway's logger by default. */
  logger?: GatewayLogger;
}

/**
 * Turns `provider:model[:level]` references and group names into AI SDK models. Resolution never calls a
 * model; only the failover model returned by `profileModel` retries (GW-24).
 */
export interface Gateway {
  languageModel(ref: string): LanguageModelV4;
  embeddingModel(ref: string): EmbeddingModelV4;
  imageModel(ref: string): ImageModelV4;
  speechModel(ref: string): SpeechModelV4;
  transcriptionModel(ref: string): TranscriptionModelV4;
  rerankingModel(ref: string): RerankingModelV4;
  /** A built group; throws for unknown or broken groups. */
  group(name: string): ModelGroup;
  /** The declared entry of `provider:model[:level]`, without building anything. */
  model(ref: string): ModelEntry | undefined;
  /** Declared models in declaration order, optionally of one type. */
  models(type?: ModelType): ModelEntry[];
  providers(): ProviderSummary[];
  /** The raw AI SDK provider. */
  provider(id: string): ProviderV4;
  groups(): ModelGroup[];
  /** Registered dialect names, built-ins first. */
  apis(): string[];
  /**
   * Registers a dialect for providers built from the next `reconfigure` on; a taken name throws. The
   * disposer unregisters it (GW-8).
   */
  defineApi(name: string, factory: ApiFactory): () => void;
  /**
   * Builds the new configuration aside and swaps it in only if every entry builds; otherwise throws and
   * leaves the current state untouched. Breakers of references kept in a group keep their state (GW-26).
   */
  reconfigure(config: GatewayConfigInput): void;
  /** Entries left out of the current state (broken or conflicting), one error each. */
  errors(): readonly GatewayError[];
  /**
   * The model a profile uses (GW-19): a failover model for a group name or for `failover.attempts > 1`, the
   * plain model otherwise. A group is looked up on every call, so `reconfigure` applies at once.
   */
  profileModel(model: string, options?: ProfileModelOptions): LanguageModelV4;
}
