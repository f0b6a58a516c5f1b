import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { OpenAICompatibleProviderSettings } from "@ai-sdk/openai-compatible";
import type { ApiFactory, ApiFactoryOptions } from "./api.js";
import type { ProviderConfig } from "./config.js";

/**
 * `settings` first, then the explicit fields that are set, which win (spec 02 GW-6). Only set fields are
 * written so that `settings.baseURL` still applies when `baseUrl` is absent.
 */
function sdkSettings({ baseUrl, apiKey, headers, settings, fetch }: ApiFactoryOptions): Record<string, unknown> {
  return {
    ...settings,
    ...(baseUrl !== undefined && { baseURL: baseUrl }),
    ...(apiKey !== undefined && { apiKey }),
    ...(headers !== undefined && { headers: { ...headers } }),
    fetch,
  };
}

/** The four dialects every gateway knows (GW-5). */
export const BUILT_IN_APIS: Readonly<Record<string, ApiFactory>> = {
  // The SDK provider is named after the provider id: `model.provider` is `<id>.chat` and providerOptions
  // are read under `<id>`. The SDK sends a Bearer header only when a key is set.
  "openai-completions": (options) =>
    createOpenAICompatible({ ...sdkSettings(options), name: options.id } as unknown as OpenAICompatibleProviderSettings),
  // Its language models use the Responses API; without baseUrl it calls the default OpenAI endpoint.
  "openai-responses": (options) => createOpenAI(sdkSettings(options)),
  // `x-api-key`; `settings.authToken` switches the SDK to a Bearer header.
  "anthropic-messages": (options) => createAnthropic(sdkSettings(options)),
  "google-generative-ai": (options) => createGoogleGenerativeAI(sdkSettings(options)),
};

/**
 * Fields a built-in dialect cannot work without, checked before its factory runs so the message names the
 * config key (GW-7). `openai-completions` may run keyless (local servers) but needs an endpoint.
 */
export function builtInRequirement(config: ProviderConfig, apiKey: string | undefined, baseUrl: string | undefined): { key: "apiKey" | "baseUrl"; message: string } | undefined {
  if (!(config.api in BUILT_IN_APIS)) return undefined;
  if (config.api === "openai-completions") {
    return baseUrl || config.settings?.baseURL ? undefined : { key: "baseUrl", message: `baseUrl is required for api "${config.api}"` };
  }
  if (config.api === "anthropic-messages" && config.settings?.authToken) return undefined;
  return apiKey ? undefined : { key: "apiKey", message: `apiKey is required for api "${config.api}"` };
}
