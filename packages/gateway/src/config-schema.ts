import { z } from "zod";
import type { GroupConfig, ProviderConfig } from "./config.js";
import { GatewayError } from "./errors.js";

export const REASONING_LEVELS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;

const modality = z.enum(["text", "image", "audio", "video", "pdf"]);
const count = z.number().int().positive();
const milliseconds = z.number().int().nonnegative();
const timeouts = z.strictObject({ firstChunkMs: milliseconds.optional(), idleMs: milliseconds.optional(), responseMs: milliseconds.optional() });

const price = z.number().nonnegative();
const prices = z.strictObject({ input: price.optional(), output: price.optional(), cacheRead: price.optional() });

const modelSchema = z.strictObject({
  id: z.string().min(1),
  type: z.enum(["language", "embedding", "image", "speech", "transcription", "reranking"]).optional(),
  name: z.string().optional(),
  input: z.array(modality).optional(),
  toolCall: z.boolean().optional(),
  reasoning: z.boolean().optional(),
  thinking: z.strictObject({ mode: z.string().optional(), efforts: z.array(z.enum(REASONING_LEVELS)).optional() }).optional(),
  contextWindow: count.optional(),
  maxTokens: count.optional(),
  dimensions: count.optional(),
  timeouts: timeouts.optional(),
  prices: prices.optional(),
});

const providerSchema = z.strictObject({
  api: z.string().min(1),
  apiKey: z.string().optional(),
  baseUrl: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  timeouts: timeouts.optional(),
  models: z.array(modelSchema).optional(),
});

const groupSchema = z.strictObject({
  strategy: z.enum(["failover", "round-robin", "random"]).optional(),
  models: z.array(z.string()),
  circuitBreaker: z.strictObject({ failureThreshold: z.number().optional(), cooldownSeconds: z.number().optional() }).optional(),
});

function formatPath(base: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === "number" ? `${at}[${key}]` : `${at}.${String(key)}`), base);
}

function parse<T>(schema: z.ZodType<T>, value: unknown, base: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new GatewayError(`${formatPath(base, issue.path)}: ${issue.message}`);
}

// Provider ids and group names cannot hold a colon: a reference splits at the first one (spec 02 GW-12).
function checkName(base: string): void {
  if (base.includes(":")) throw new GatewayError(`${base}: names cannot contain ":"`);
}

export function parseProvider(id: string, value: unknown): ProviderConfig {
  const base = `providers.${id}`;
  checkName(base);
  return parse(providerSchema, value, base);
}

export function parseGroup(name: string, value: unknown): GroupConfig {
  const base = `groups.${name}`;
  checkName(base);
  return parse(groupSchema, value, base);
}

/** Checks the two top-level keys; entries are checked one by one so a broken entry spares the others. */
export function parseSections(value: unknown, source: string): { providers: Record<string, unknown>; groups: Record<string, unknown> } {
  const sections = parse(
    z.object({ providers: z.record(z.string(), z.unknown()).optional(), groups: z.record(z.string(), z.unknown()).optional() }),
    value ?? {},
    source,
  );
  return { providers: sections.providers ?? {}, groups: sections.groups ?? {} };
}
