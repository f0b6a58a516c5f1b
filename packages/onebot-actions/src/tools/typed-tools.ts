import { jsonSchema, tool } from "koishi-plugin-ishiki";
import type { ToolSet } from "koishi-plugin-ishiki";
import type { CatalogEntry } from "../catalog/catalog-entry.js";
import { checkParams } from "../params-check.js";
import { ACCOUNT_PROPERTY, callerOf, type ToolContext } from "./tool-context.js";

/** `onebot_<action>`, the leading `_` of extension actions dropped (OB-10). */
export function typedToolName(action: string): string {
  return `onebot_${action.replace(/^_/, "")}`;
}

type TypedInput = Record<string, unknown> & { account?: string };

function typedTool(entry: CatalogEntry, context: ToolContext) {
  const properties = (entry.params.properties ?? {}) as Record<string, unknown>;
  const schema = { ...entry.params, properties: context.cross ? { ...properties, account: ACCOUNT_PROPERTY } : properties };
  return tool({
    description: `${entry.summary} ${entry.description}`,
    inputSchema: jsonSchema<TypedInput>(schema, {
      validate: (value) => {
        const problem = checkParams(entry.params, value);
        return problem ? { success: false, error: new Error(`${typedToolName(entry.action)}: invalid ${problem}`) } : { success: true, value: value as TypedInput };
      },
    }),
    ...(entry.result ? { outputSchema: jsonSchema<unknown>(entry.result) } : {}),
    execute: async (input: TypedInput, execution: unknown) => {
      const { account, ...params } = input;
      return context.runner.run({ entry, params, account, caller: callerOf(execution) });
    },
  });
}

/** OB-10: one tool per exposed action, input its params (+ `account` in cross runtimes). */
export function typedTools(context: ToolContext): ToolSet {
  return Object.fromEntries(context.exposed.map((entry) => [typedToolName(entry.action), typedTool(entry, context)]));
}
