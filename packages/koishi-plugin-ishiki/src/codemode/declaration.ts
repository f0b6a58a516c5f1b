import { docComment, schemaToType, type JsonSchema } from "./schema-type.js";

/** What a signature is made from: the tool as the catalog holds it. */
export interface CodemodeToolSignatureSource {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: JsonSchema;
  readonly outputSchema?: JsonSchema;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * `declare function <name>(input: <In>): Promise<<Out>>;` with the description as JSDoc (spec 05 CT-5).
 * No output schema gives `Promise<unknown>`; an input without required keys is optional. A name that is not
 * an identifier is declared with `_` in place of the other characters, and its JSDoc says how to call it.
 */
export function toolDeclaration(tool: CodemodeToolSignatureSource): string {
  const input = tool.inputSchema === undefined ? "unknown" : schemaToType(tool.inputSchema);
  const output = tool.outputSchema === undefined ? "unknown" : schemaToType(tool.outputSchema);
  const identifier = IDENTIFIER.test(tool.name);
  const name = identifier ? tool.name : tool.name.replace(/^[^A-Za-z_$]|[^\w$]/g, "_");
  const notes = [tool.description?.trim(), identifier ? undefined : `Call as tools[${JSON.stringify(tool.name)}](input).`]
    .filter((text): text is string => !!text)
    .join("\n\n");
  const optional = inputIsOptional(tool.inputSchema) ? "?" : "";
  const doc = notes ? docComment(notes, "") : [];
  return [...doc, `declare function ${name}(input${optional}: ${input}): Promise<${output}>;`].join("\n");
}

/** Declarations of every program-callable tool, in the order given (the assembly order). */
export function toolDeclarations(tools: readonly CodemodeToolSignatureSource[]): string {
  return tools.map(toolDeclaration).join("\n\n");
}

function inputIsOptional(schema: JsonSchema | undefined): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  if (schema.type !== "object") return false;
  return !Array.isArray(schema.required) || schema.required.length === 0;
}
