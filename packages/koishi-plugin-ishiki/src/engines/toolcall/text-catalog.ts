import { inlineLocalRefs } from "./schema-refs.js";
import type { ParameterSchema } from "./text-coerce.js";

/** The tools of one model call: names and input schemas, local `$ref`s inlined so values are typed through them. */
export class ToolCatalog {
  private readonly schemas: ReadonlyMap<string, ParameterSchema>;

  public constructor(tools: ReadonlyArray<{ name: string; inputSchema: unknown }>) {
    this.schemas = new Map(tools.map((tool) => [tool.name, inlineLocalRefs(tool.inputSchema ?? {}) as ParameterSchema]));
  }

  public has(name: string | undefined): name is string {
    return name !== undefined && this.schemas.has(name);
  }

  public schema(name: string): ParameterSchema | undefined {
    return this.schemas.get(name);
  }
}
