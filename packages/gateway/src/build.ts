import type { FetchFunction } from "@ai-sdk/provider-utils";
import type { ApiFactory } from "./api.js";
import { builtInRequirement } from "./apis.js";
import type { BreakerRecord } from "./breaker.js";
import { parseGroup, parseProvider } from "./config-schema.js";
import { expandEnv } from "./env.js";
import { GatewayError } from "./errors.js";
import type { GatewayConfigInput } from "./gateway.js";
import { createModelGroup } from "./group.js";
import type { ResolvedMember } from "./group.js";
import { mergeSources } from "./merge.js";
import { modelEntries } from "./model-entry.js";
import { REDACTED_HEADERS } from "./redact.js";
import { resolveModel } from "./resolve.js";
import type { BuiltProvider, GatewayState } from "./state.js";

export interface BuildContext {
  apis: ReadonlyMap<string, ApiFactory>;
  fetch: FetchFunction;
  env: Record<string, string | undefined>;
  /** Receives every expanded value and key, for redaction. */
  secrets: Set<string>;
  redact: (text: string) => string;
  /** Breaker counters of the state being replaced, by group name then reference (GW-26). */
  previous: ReadonlyMap<string, ReadonlyMap<string, BreakerRecord>>;
}

function buildProvider(id: string, raw: unknown, context: BuildContext): BuiltProvider {
  const config = parseProvider(id, raw);
  const base = `providers.${id}`;
  const factory = context.apis.get(config.api);
  if (!factory) {
    throw new GatewayError(`${base}: unknown api "${config.api}" (registered: ${[...context.apis.keys()].join(", ")})`);
  }
  const expand = (value: string | undefined, path: string) =>
    value === undefined ? undefined : expandEnv(value, `${base}.${path}`, context.env, context.secrets);
  const apiKey = expand(config.apiKey, "apiKey");
  const baseUrl = expand(config.baseUrl, "baseUrl");
  const headers = config.headers && Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, expand(value, `headers.${name}`)!]));
  // Literal keys are secrets too, not only the ones that came from the environment.
  const authHeaders = Object.entries(headers ?? {}).filter(([name]) => REDACTED_HEADERS.has(name.toLowerCase()));
  for (const secret of [apiKey, config.settings?.authToken, ...authHeaders.map(([, value]) => value)]) {
    if (typeof secret === "string" && secret) context.secrets.add(secret);
  }
  const missing = builtInRequirement(config, apiKey, baseUrl);
  if (missing) throw new GatewayError(`${base}: ${missing.message}${emptyBecause(raw, missing.key)}`);
  try {
    const sdk = factory({ id, baseUrl, apiKey, headers, settings: config.settings ?? {}, fetch: context.fetch });
    return { id, api: config.api, sdk, timeouts: config.timeouts, entries: config.models && modelEntries(id, config.models) };
  } catch (error) {
    const { name, message } = error as Error;
    throw new GatewayError(context.redact(`${base} (api: ${config.api}) could not be built: ${name}: ${message}`), { cause: error });
  }
}

/**
 * Why a required value is there but empty, when the configuration shows it: koishi.yml's `${{ env.NAME }}` of an
 * unset variable leaves the key with no value (YAML itself cannot), and inside a longer string an empty one.
 * Only `${NAME}` (GW-13) lets the error name the variable, so the hint points there.
 */
function emptyBecause(raw: unknown, key: string): string {
  if (typeof raw !== "object" || raw === null || !Object.hasOwn(raw, key)) return "";
  const value = (raw as Record<string, unknown>)[key];
  if (value === undefined) return `; ${key} is written but has no value: an expression such as \${{ env.NAME }} read an unset environment variable (write \${NAME} and the error names it)`;
  if (value === "") return `; ${key} is empty: an environment variable behind it may be unset (write \${NAME} and the error names it)`;
  return "";
}

/**
 * Builds a whole configuration into a fresh state (spec 02 GW-1..GW-17). A broken or conflicting entry is
 * recorded in `broken` and left out; every other entry stays usable (spec 12 QA-5).
 */
export function buildState(input: GatewayConfigInput, context: BuildContext): GatewayState {
  const merged = mergeSources(input);
  const state: GatewayState = { providers: new Map(), groups: new Map(), broken: merged.errors };
  for (const [id, raw] of merged.providers) {
    try {
      state.providers.set(id, buildProvider(id, raw, context));
    } catch (error) {
      state.broken.set(`providers.${id}`, error as GatewayError);
    }
  }
  for (const [name, raw] of merged.groups) {
    const base = `groups.${name}`;
    try {
      const config = parseGroup(name, raw);
      if (config.models.length === 0) throw new GatewayError(`${base}: declares no members`);
      const members: ResolvedMember[] = config.models.map((ref) => {
        try {
          const { model, entry } = resolveModel(state, ref, "languageModel");
          return { ref, model, metadata: entry?.metadata ?? {} };
        } catch (error) {
          throw new GatewayError(`${base}: ${(error as Error).message}`, { cause: error });
        }
      });
      state.groups.set(name, createModelGroup(name, config, members, context.previous.get(name)));
    } catch (error) {
      state.broken.set(base, error as GatewayError);
    }
  }
  return state;
}
