import { z } from "zod";
import { resolveCodemodeLimits, type CodemodeLimits } from "../codemode/index.js";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT } from "../toolsearch/index.js";

const names = z.array(z.string()).default([]);
const limit = z.number().int().optional();

const codemodeSchema = z.object({
  enable: z.boolean().default(false),
  direct: names,
  directOnly: names,
  timeoutMs: limit,
  memoryLimitBytes: limit,
  maxToolInputBytes: limit,
  maxToolOutputBytes: limit,
  maxResultBytes: limit,
  maxStackBytes: limit,
  maxConsoleBytes: limit,
  maxToolCalls: limit,
});

const toolsearchSchema = z.object({
  enable: z.boolean().default(false),
  resident: names,
  maxResults: z.number().int().min(1).max(MAX_RESULTS_LIMIT).default(DEFAULT_MAX_RESULTS),
});

/** Profile `codemode.*` (spec 05 CT-1, CT-2, CT-12). */
export interface CodemodeSettings {
  readonly enable: boolean;
  /** Tools the model and programs both call (CT-2 "both"), besides `send_message` and `read`. */
  readonly direct: readonly string[];
  /** Tools only the model calls (CT-2 "direct-only"), besides the kernel's. */
  readonly directOnly: readonly string[];
  readonly limits: CodemodeLimits;
}

/** Profile `toolsearch.*` (spec 05 CT-21). */
export interface ToolsearchSettings {
  readonly enable: boolean;
  readonly resident: readonly string[];
  readonly maxResults: number;
}

function parse<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`${[path, ...issue.path.map(String)].join(".")}: ${issue.message}`);
}

export function resolveCodemodeSettings(value: unknown): CodemodeSettings {
  const { enable, direct, directOnly, ...overrides } = parse(codemodeSchema, value, "codemode");
  const limits = Object.fromEntries(Object.entries(overrides).filter(([, given]) => given !== undefined)) as Partial<CodemodeLimits>;
  return { enable, direct, directOnly, limits: resolveCodemodeLimits(limits) };
}

export function resolveToolsearchSettings(value: unknown): ToolsearchSettings {
  return parse(toolsearchSchema, value, "toolsearch");
}
