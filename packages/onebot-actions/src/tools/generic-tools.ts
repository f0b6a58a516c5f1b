import { jsonSchema, tool, ToolError } from "koishi-plugin-ishiki";
import type { ToolSet } from "koishi-plugin-ishiki";
import type { ActionCategory, CatalogEntry, CatalogSchema } from "../catalog/catalog-entry.js";
import { CATEGORIES } from "../catalog/catalog-entry.js";
import { checkParams } from "../params-check.js";
import { ACCOUNT_PROPERTY, callerOf, type ToolContext } from "./tool-context.js";

interface ListInput {
  query?: string;
  category?: ActionCategory;
}

interface ListedAction {
  action: string;
  summary: string;
  params: CatalogSchema;
}

interface CallInput {
  action: string;
  params?: Record<string, unknown>;
  account?: string;
}

function matches(entry: CatalogEntry, input: ListInput): boolean {
  if (input.category !== undefined && entry.category !== input.category) return false;
  const haystack = `${entry.action} ${entry.summary} ${entry.description}`.toLowerCase();
  return (input.query ?? "").toLowerCase().split(/\s+/).filter(Boolean).every((word) => haystack.includes(word));
}

/** OB-9: `onebot_actions` lists exposed entries, `onebot_call` runs one with validated params. */
export function genericTools(context: ToolContext): ToolSet {
  const { runner, settings, exposed } = context;
  return {
    onebot_actions: tool({
      description: "List the OneBot actions you may call with onebot_call: name, one-line summary and params (JSON Schema). Filter by words in query and by category.",
      inputSchema: jsonSchema<ListInput>({
        type: "object",
        properties: {
          query: { type: "string", description: "Words that must all appear in the action's name or description." },
          category: { type: "string", enum: [...CATEGORIES] },
        },
      }),
      outputSchema: jsonSchema<{ actions: ListedAction[] }>({
        type: "object",
        properties: { actions: { type: "array", items: { type: "object", properties: { action: { type: "string" }, summary: { type: "string" }, params: { type: "object" } } } } },
        required: ["actions"],
      }),
      execute: async (input) => ({
        actions: exposed.filter((entry) => matches(entry, input)).map(({ action, summary, params }) => ({ action, summary, params })),
      }),
    }),
    onebot_call: tool({
      description: "Call one OneBot v11 action listed by onebot_actions with its params; returns the action's data.",
      inputSchema: jsonSchema<CallInput>({
        type: "object",
        properties: {
          action: { type: "string", description: "Action name, e.g. get_group_member_info." },
          params: { type: "object", description: "The action's params as onebot_actions lists them." },
          ...(context.cross ? { account: ACCOUNT_PROPERTY } : {}),
        },
        required: ["action"],
      }),
      execute: async (input, execution) => {
        const entry = exposed.find((candidate) => candidate.action === input.action);
        if (!entry) throw new ToolError(`action "${input.action}" is not available (mode generic, maxRisk ${settings.maxRisk})`);
        const params = input.params ?? {};
        const problem = checkParams(entry.params, params);
        if (problem) throw new ToolError(`action "${entry.action}": invalid ${problem}`);
        return runner.run({ entry, params, account: input.account, caller: callerOf(execution) });
      },
    }),
  };
}
