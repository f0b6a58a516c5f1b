import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ApiFactory } from "./api.js";
import { BUILT_IN_APIS } from "./apis.js";
import { buildState } from "./build.js";
import type { BuildContext } from "./build.js";
import { createDumpingFetch } from "./dump.js";
import { GatewayError } from "./errors.js";
import { createFailoverModel } from "./failover-model.js";
import type { CreateGatewayOptions, Gateway, GatewayConfigInput, ProfileModelOptions } from "./gateway.js";
import { silentLogger } from "./logger.js";
import type { Candidate } from "./model-group.js";
import { createRedactor } from "./redact.js";
import { lookupEntry, lookupProvider, resolveModel } from "./resolve.js";
import type { GatewayState } from "./state.js";

/**
 * Creates the model gateway (spec 02 GW-27). Broken entries of the initial configuration are logged at warn,
 * left out and listed by `errors()`; resolving one of them throws its error, so only the profiles that need
 * it fail.
 */
export function createGateway(options: CreateGatewayOptions = {}): Gateway {
  const logger = options.logger ?? silentLogger;
  const secrets = new Set<string>();
  const redact = createRedactor(secrets);
  const apis = new Map<string, ApiFactory>(Object.entries(BUILT_IN_APIS));
  const define = (name: string, factory: ApiFactory) => {
    if (apis.has(name)) throw new GatewayError(`defineApi: api "${name}" is already registered`);
    apis.set(name, factory);
  };
  for (const [name, factory] of Object.entries(options.apis ?? {})) define(name, factory);

  const baseFetch = options.fetch ?? globalThis.fetch;
  const fetch = options.dumpDir ? createDumpingFetch(baseFetch, { dir: options.dumpDir, logger, redact }) : baseFetch;

  const build = (config: GatewayConfigInput, previous: GatewayState | undefined): GatewayState => {
    const context: BuildContext = {
      apis: new Map(apis),
      fetch,
      env: options.env ?? process.env,
      secrets,
      redact,
      previous: new Map([...(previous?.groups ?? [])].map(([name, group]) => [name, group.records()])),
    };
    return buildState(config, context);
  };

  let state = build(options.config ?? {}, undefined);
  for (const error of state.broken.values()) logger.warn(`${error.message}; profiles using it fail activation`);

  const group = (name: string) => {
    const found = state.groups.get(name);
    if (found) return found;
    const broken = state.broken.get(`groups.${name}`);
    if (broken) throw broken;
    throw new GatewayError(`Unknown model group "${name}" (declared: ${[...state.groups.keys()].join(", ") || "none"})`);
  };

  const profileModel = (model: string, { failover = {}, logger: log = logger }: ProfileModelOptions = {}): LanguageModelV4 => {
    if (!model.includes(":")) {
      group(model);
      // Looked up per call, so a reconfigured group applies to running profiles at once.
      return createFailoverModel({ name: model, candidates: () => group(model).candidates() }, { ...failover, logger: log, redact });
    }
    const plain = gateway.languageModel(model);
    if ((failover.attempts ?? 1) <= 1) return plain;
    const only: Candidate = { id: model, model: plain, metadata: lookupEntry(state, model)?.metadata ?? {}, success() {}, failure() {} };
    return createFailoverModel({ name: model, candidates: () => [only] }, { ...failover, logger: log, redact });
  };

  const gateway: Gateway = {
    languageModel: (ref) => resolveModel(state, ref, "languageModel").model,
    embeddingModel: (ref) => resolveModel(state, ref, "embeddingModel").model,
    imageModel: (ref) => resolveModel(state, ref, "imageModel").model,
    speechModel: (ref) => resolveModel(state, ref, "speechModel").model,
    transcriptionModel: (ref) => resolveModel(state, ref, "transcriptionModel").model,
    rerankingModel: (ref) => resolveModel(state, ref, "rerankingModel").model,
    group,
    model: (ref) => lookupEntry(state, ref),
    models: (type) =>
      [...state.providers.values()].flatMap((provider) => [...(provider.entries?.values() ?? [])]).filter((entry) => !type || entry.type === type),
    providers: () => [...state.providers.values()].map(({ id, api }) => ({ id, api })),
    provider: (id) => lookupProvider(state, id, id).sdk,
    groups: () => [...state.groups.values()],
    apis: () => [...apis.keys()],
    defineApi(name, factory) {
      define(name, factory);
      return () => {
        if (apis.get(name) === factory) apis.delete(name);
      };
    },
    reconfigure(config) {
      const next = build(config, state);
      const errors = [...next.broken.values()];
      if (errors.length > 0) {
        const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
        throw new GatewayError(`models: configuration rejected, nothing changed: ${errors[0].message}${more}`, { cause: new AggregateError(errors) });
      }
      state = next;
    },
    errors: () => [...state.broken.values()],
    profileModel,
  };
  return gateway;
}
