/** What a language model accepts as input (spec 02 GW-9); undeclared input means `["text"]`. */
export type ModelModality = "text" | "image" | "audio" | "video" | "pdf";

/** The AI SDK model kind an entry serves; `language` when not declared. */
export type ModelType = "language" | "embedding" | "image" | "speech" | "transcription" | "reranking";

/** A reasoning effort, passed to the SDK as the `reasoning` call option (GW-12). */
export type ReasoningLevel = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/**
 * Deadlines of one model call in milliseconds; `0` turns one off (spec 02, decided here). A model's own
 * `timeouts` win over its provider's, key by key; unset keys take the defaults (90 s, 30 s, 180 s).
 */
export interface ModelTimeouts {
  /** A stream's first output part must arrive within this of the call's start. */
  firstChunkMs?: number;
  /** Each further part of a stream must arrive within this of the one before. */
  idleMs?: number;
  /** A generate call (no stream) must answer within this. */
  responseMs?: number;
}

/**
 * One declared model of a provider. Capabilities come only from these declarations, never from the model's
 * name (GW-11): a model that does not declare `image` input is treated as text-only.
 */
export interface ModelConfig {
  id: string;
  type?: ModelType;
  /** Display name. */
  name?: string;
  input?: ModelModality[];
  toolCall?: boolean;
  reasoning?: boolean;
  /** `efforts` lists the only `:level` suffixes this model accepts. */
  thinking?: { mode?: string; efforts?: ReasoningLevel[] };
  contextWindow?: number;
  maxTokens?: number;
  /** Embedding models: the vector size. */
  dimensions?: number;
  timeouts?: ModelTimeouts;
  /** What a call costs, for `ishiki.usage` and cost budgets; only declared prices are used, never guessed. */
  prices?: ModelPrices;
}

/**
 * Prices per million tokens, in whatever currency the owner uses for every entry. Cache reads cost `input` when
 * `cacheRead` is not declared; cache writes are counted as input.
 */
export interface ModelPrices {
  input?: number;
  output?: number;
  cacheRead?: number;
}

/**
 * One endpoint (GW-4). `apiKey`, `baseUrl` and header values may contain `${ENV}` references (GW-13);
 * `settings` is spread into the SDK factory before the explicit fields, which win (GW-6).
 */
export interface ProviderConfig {
  /** A built-in dialect or one registered with `defineApi`. */
  api: string;
  apiKey?: string;
  baseUrl?: string;
  headers?: Record<string, string>;
  settings?: Record<string, unknown>;
  /** Deadlines of every language model call to this provider; a model's own `timeouts` win. */
  timeouts?: ModelTimeouts;
  /** When omitted the provider serves any model id, each without declared capabilities. */
  models?: ModelConfig[];
}

export type GroupStrategy = "failover" | "round-robin" | "random";

/** Out-of-range values are clamped: threshold to at least 1, cooldown to at least 0 (GW-17). */
export interface CircuitBreakerConfig {
  /** Consecutive failures that open the breaker; default 3. */
  failureThreshold?: number;
  /** Seconds after the latest failure before the breaker turns half-open; default 60. */
  cooldownSeconds?: number;
}

/** A named set of `provider:model[:level]` references (GW-14). */
export interface GroupConfig {
  strategy?: GroupStrategy;
  models: string[];
  circuitBreaker?: CircuitBreakerConfig;
}

/** The `models` key of the plugin and the content of `<dataPath>/models.yaml` (GW-1). */
export interface GatewayConfig {
  providers?: Record<string, ProviderConfig>;
  groups?: Record<string, GroupConfig>;
}

/** A named configuration source; names appear in conflict errors (GW-2), e.g. `koishi.yml`. */
export interface GatewayConfigSource {
  name: string;
  config: GatewayConfig | undefined;
}

/** A profile's `failover` section (GW-20). */
export interface FailoverConfig {
  /** Total attempts, at least 1; unset means one round over the candidates. */
  attempts?: number;
  /** Base of the exponential backoff; default 500. */
  backoffMs?: number;
  /** `unavailable` (default) switches only on availability errors; `any` also on other 4xx. */
  failoverOn?: "unavailable" | "any";
}
