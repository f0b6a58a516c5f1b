import type { JSONSchema7 } from "ai";

/** A tool of the labelled set: what a real tool of that source exposes to the model. */
export interface LabelledTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JSONSchema7;
}

/** A query as a user or model would type it, with every tool that answers it. */
export interface LabelledQuery {
  readonly query: string;
  readonly relevant: readonly string[];
}

// Schema builders keep the data files readable; the output is plain JSON Schema as MCP servers send it.
export const str = (description: string): JSONSchema7 => ({ type: "string", description });
export const int = (description: string): JSONSchema7 => ({ type: "integer", description });
export const num = (description: string): JSONSchema7 => ({ type: "number", description });
export const bool = (description: string): JSONSchema7 => ({ type: "boolean", description });
export const list = (items: JSONSchema7, description?: string): JSONSchema7 => ({ type: "array", items, ...(description ? { description } : {}) });
export const oneOf = (values: string[], description: string): JSONSchema7 => ({ type: "string", enum: values, description });

export function object(properties: Record<string, JSONSchema7>, required: string[] = Object.keys(properties)): JSONSchema7 {
  return { type: "object", properties, required, additionalProperties: false };
}
