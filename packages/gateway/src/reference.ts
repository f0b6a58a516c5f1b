import type { ReasoningLevel } from "./config.js";
import { REASONING_LEVELS } from "./config-schema.js";
import { GatewayError } from "./errors.js";

export interface Reference {
  provider: string;
  model: string;
  level?: ReasoningLevel;
}

function isLevel(value: string): value is ReasoningLevel {
  return (REASONING_LEVELS as readonly string[]).includes(value);
}

/**
 * Parses `provider:model[:level]` (spec 02 GW-12). The provider ends at the first colon; model ids may hold
 * colons themselves (`ollama:qwen:7b`), so a trailing level counts only when the whole rest is not itself a
 * declared model id.
 */
export function parseReference(ref: string, isDeclared: (provider: string, model: string) => boolean): Reference {
  const colon = ref.indexOf(":");
  const provider = ref.slice(0, colon);
  const rest = ref.slice(colon + 1);
  if (colon <= 0 || rest === "") throw new GatewayError(`"${ref}" is not a "provider:model" reference`);
  const last = rest.lastIndexOf(":");
  const suffix = rest.slice(last + 1);
  if (last > 0 && isLevel(suffix) && !isDeclared(provider, rest)) {
    return { provider, model: rest.slice(0, last), level: suffix };
  }
  return { provider, model: rest };
}
