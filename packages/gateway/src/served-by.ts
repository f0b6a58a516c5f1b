import type { SharedV4ProviderMetadata } from "@ai-sdk/provider";

/**
 * The provider-metadata namespace under which a failover model names the candidate that answered a call
 * (`{ gateway: { model: "relay:gpt-4o-mini" } }`, on the `finish` part of a stream and on a generate result), so
 * usage can be priced per declared model. Providers read only their own namespace; the AI SDK keeps finish
 * metadata on the step result and never replays it into later requests.
 */
export const SERVED_BY_NAMESPACE = "gateway";

export function withServedBy(metadata: SharedV4ProviderMetadata | undefined, ref: string): SharedV4ProviderMetadata {
  return { ...metadata, [SERVED_BY_NAMESPACE]: { ...metadata?.[SERVED_BY_NAMESPACE], model: ref } };
}

/** The reference a failover model reported for a call, when it did. */
export function servedBy(metadata: SharedV4ProviderMetadata | undefined): string | undefined {
  const model = metadata?.[SERVED_BY_NAMESPACE]?.model;
  return typeof model === "string" ? model : undefined;
}
