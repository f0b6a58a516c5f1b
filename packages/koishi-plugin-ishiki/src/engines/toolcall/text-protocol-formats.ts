import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider";
import YAML from "yaml";
import { propertiesOf, type ParameterSchema } from "./text-coerce.js";

/** The text tool-call protocols of spec 06 EN-40, by engine name. */
export type TextProtocolName = "hermes" | "morph-xml" | "qwen3coder" | "yaml-xml";

export const TEXT_PROTOCOL_NAMES: readonly TextProtocolName[] = ["hermes", "morph-xml", "qwen3coder", "yaml-xml"];

/** How one protocol writes calls and results: the prompt's contract, history, and the format shown on a defect. */
export interface TextFormat {
  /** The contract and catalog appended to the system message. */
  instructions(tools: readonly LanguageModelV4FunctionTool[]): string;
  /** A call in the protocol's shape, as the model would have written it. */
  call(toolName: string, input: Record<string, unknown>): string;
  /** A tool's result (already text) for the next user message. */
  result(toolName: string, content: string): string;
  /** The expected shape of a call on `tool`, with placeholders: shown with every invalid call. */
  example(toolName: string, schema: ParameterSchema | undefined): string;
}

const catalogOf = (tools: readonly LanguageModelV4FunctionTool[]): string =>
  tools.length === 0 ? "<tools>\n</tools>" : `<tools>\n${tools.map((tool) => JSON.stringify({ type: "function", function: { name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema } })).join("\n")}\n</tools>`;

const RULES = `- Call only the functions listed, with the parameters their schema names; each required parameter once.
- You may write a short note before the calls; several calls in one answer run in order.
- Results come back in <tool_response> blocks; if a call was invalid, the response says why: fix it and call again.`;

const text = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));
const placeholders = (schema: ParameterSchema | undefined): string[] => {
  const keys = Object.keys(propertiesOf(schema));
  return keys.length > 0 ? keys : ["<parameter>"];
};

const hermes: TextFormat = {
  instructions: (tools) => `# Tools

You may call functions to act. Their signatures are JSON lines within <tools></tools>:
${catalogOf(tools)}

To call a function, write a JSON object with its name and arguments inside <tool_call></tool_call> tags:
<tool_call>
{"name": "<function-name>", "arguments": {"<parameter>": <value>}}
</tool_call>

${RULES}`,
  call: (toolName, input) => `<tool_call>\n${JSON.stringify({ name: toolName, arguments: input })}\n</tool_call>`,
  result: (toolName, content) => `<tool_response>\n${JSON.stringify({ name: toolName, content })}\n</tool_response>`,
  example: (toolName, schema) => `<tool_call>{"name": "${toolName}", "arguments": {${placeholders(schema).map((key) => `"${key}": …`).join(", ")}}}</tool_call>`,
};

const qwen3coder: TextFormat = {
  instructions: (tools) => `# Tools

You have access to the following functions:
${catalogOf(tools)}

To call a function, reply in this format; each parameter in its own block, its value as plain text (JSON for arrays
and objects), which may span lines:
<tool_call>
<function=example_function_name>
<parameter=example_parameter_1>
value_1
</parameter>
<parameter=example_parameter_2>
This is the value for the second parameter
that can span
multiple lines
</parameter>
</function>
</tool_call>

${RULES}`,
  call: (toolName, input) => `<tool_call>\n<function=${toolName}>\n${Object.entries(input).map(([key, value]) => `<parameter=${key}>\n${text(value)}\n</parameter>\n`).join("")}</function>\n</tool_call>`,
  result: (_toolName, content) => `<tool_response>\n${content}\n</tool_response>`,
  example: (toolName, schema) => `<tool_call><function=${toolName}>${placeholders(schema).map((key) => `<parameter=${key}>…</parameter>`).join("")}</function></tool_call>`,
};

const morphXml: TextFormat = {
  instructions: (tools) => `# Tools

You may call functions to act. Their signatures are JSON lines within <tools></tools>:
${catalogOf(tools)}

To call a function, write one XML element named after it, with one child element per parameter. Strings are
plain text; numbers, booleans, arrays and objects are written as JSON:
<example_function_name>
  <example_parameter_1>value_1</example_parameter_1>
  <example_parameter_2>This is the value for the second parameter
that can span
multiple lines</example_parameter_2>
</example_function_name>

${RULES}`,
  call: (toolName, input) => `<${toolName}>\n${Object.entries(input).map(([key, value]) => `  <${key}>${text(value)}</${key}>\n`).join("")}</${toolName}>`,
  result: (toolName, content) => `<tool_response>\n<tool_name>${toolName}</tool_name>\n<result>${content}</result>\n</tool_response>`,
  example: (toolName, schema) => `<${toolName}>${placeholders(schema).map((key) => `<${key}>…</${key}>`).join("")}</${toolName}>`,
};

const yamlXml: TextFormat = {
  instructions: (tools) => `# Tools

You may call functions to act. Their signatures are JSON lines within <tools></tools>:
${catalogOf(tools)}

To call a function, write one XML element named after it; inside it, the parameters as YAML \`key: value\` lines:
<get_weather>
location: New York
unit: celsius
</get_weather>

For a value of several lines use YAML's literal block:
<write_file>
path: /tmp/example.txt
contents: |
  First line
  Second line
</write_file>

${RULES}`,
  call: (toolName, input) => `<${toolName}>\n${Object.keys(input).length === 0 ? "" : YAML.stringify(input)}</${toolName}>`,
  result: (toolName, content) => `<tool_response>\n<tool_name>${toolName}</tool_name>\n<result>${content}</result>\n</tool_response>`,
  example: (toolName, schema) => `<${toolName}>\n${placeholders(schema).map((key) => `${key}: …`).join("\n")}\n</${toolName}>`,
};

export const TEXT_FORMATS: Readonly<Record<TextProtocolName, TextFormat>> = { hermes, qwen3coder, "morph-xml": morphXml, "yaml-xml": yamlXml };
