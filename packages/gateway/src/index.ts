export type { ApiFactory, ApiFactoryOptions } from "./api.js";
export type {
  CircuitBreakerConfig,
  FailoverConfig,
  GatewayConfig,
  GatewayConfigSource,
  GroupConfig,
  GroupStrategy,
  ModelConfig,
  ModelModality,
  ModelPrices,
  ModelTimeouts,
  ModelType,
  ProviderConfig,
  ReasoningLevel,
} from "./config.js";
export { readModelsFile } from "./config-file.js";
export { createGateway } from "./create-gateway.js";
export { GatewayError } from "./errors.js";
export { createFailoverModel, MAX_RETRY_AFTER_MS } from "./failover-model.js";
export { SERVED_BY_NAMESPACE, servedBy } from "./served-by.js";
export type { FailoverModelOptions } from "./failover-model.js";
export type { CreateGatewayOptions, Gateway, GatewayConfigInput, ProfileModelOptions, ProviderSummary } from "./gateway.js";
export type { GatewayLogger } from "./logger.js";
export { DEFAULT_TIMEOUTS, ModelTimeoutError } from "./model-deadlines.js";
export type { ModelEntry, ModelMetadata } from "./model-entry.js";
export type { BreakerState, BreakerStatus, Candidate, CandidateSource, ModelGroup } from "./model-group.js";
