import type { ProviderV4 } from "@ai-sdk/provider";
import type { FetchFunction } from "@ai-sdk/provider-utils";

/** What a dialect factory receives: the provider's entry with `${ENV}` already expanded (spec 02 GW-8). */
export interface ApiFactoryOptions {
  /** The provider id from the configuration. */
  id: string;
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  settings: Record<string, unknown>;
  /** Pass this to the SDK provider: it carries the gateway's request dumping (GW-28). */
  fetch: FetchFunction;
}

/** Builds an AI SDK provider for one configured endpoint. It may throw; the gateway reports it (GW-25). */
export type ApiFactory = (options: ApiFactoryOptions) => ProviderV4;
