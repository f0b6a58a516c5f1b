import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider";
import { inlineLocalRefs } from "./schema-refs.js";

/** The v3 JSON action protocol the model is asked to follow (spec 06 EN-41). */
export const V3_CONTRACT = `# How you act

Answer every time with exactly one fenced \`json\` block and nothing else:

\`\`\`json
{
  "thoughts": { "observe": "what you notice", "analyze_infer": "what it means", "plan": "what you will do" },
  "actions": [{ "function": "<function name>", "params": { "<key>": "<value>" } }]
}
\`\`\`

- Each action calls one function of the list below with its params; several actions run in order.
- \`send_message\` is the only action people can see: anything else you write stays private.
- Results come back as <observation> blocks with <status>success|error</status>; fix an action that failed.
- Call \`finish\` when you are done; an empty \`actions\` list also ends your turn.`;

/**
 * The catalog (EN-41): per tool its name, `desc:` and `params:` lines `key: (type) **(required)** description`
 * (or "requires no parameters"), tools separated by `---`. Local `$ref`s are followed, so a parameter defined
 * in `$defs` shows its real type.
 */
export function renderV3Catalog(tools: readonly LanguageModelV4FunctionTool[]): string {
  if (tools.length === 0) return "# Functions\n\nNo functions are available: use an empty `actions` list.";
  return `# Functions\n\n${tools.map(renderTool).join("\n---\n")}`;
}

interface JsonSchemaLike {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchemaLike;
  anyOf?: JsonSchemaLike[];
  oneOf?: JsonSchemaLike[];
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
}

function renderTool(tool: LanguageModelV4FunctionTool): string {
  const schema = inlineLocalRefs(tool.inputSchema) as JsonSchemaLike;
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const lines = [`name: ${tool.name}`, `desc: ${oneLine(tool.description ?? "")}`];
  if (properties.length === 0) lines.push("params: requires no parameters");
  else {
    lines.push("params:");
    for (const [key, property] of properties) {
      const description = property.description ? ` ${oneLine(property.description)}` : "";
      lines.push(`  ${key}: (${typeOf(property)})${required.has(key) ? " **(required)**" : ""}${description}`);
    }
  }
  return lines.join("\n");
}

function typeOf(schema: JsonSchemaLike): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map(typeOf).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  return type === "array" && schema.items ? `array of ${typeOf(schema.items)}` : type;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
