import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describesTool, parameterNames, readToolDocument, type ToolDocument } from "./tool-document.js";

describe("tool documents (CT-23)", () => {
  it("CT-23 parameter names come from properties, array items and unions, nested keys included", () => {
    const names = parameterNames({
      type: "object",
      properties: {
        message_type: { type: "string" },
        messages: { type: "array", items: { type: "object", properties: { nodeId: { type: "string" } } } },
        target: { anyOf: [{ type: "object", properties: { group_id: {} } }, { type: "object", properties: { user_id: {} } }] },
      },
    });
    expect(names).toEqual(["message_type", "messages", "nodeId", "target", "group_id", "user_id"]);
  });

  it("CT-23 keys deeper than three object levels are left out", () => {
    const deep = { type: "object" as const, properties: { a: { type: "object" as const, properties: { b: { type: "object" as const, properties: { c: { type: "object" as const, properties: { d: { type: "object" as const, properties: { e: {} } } } } } } } } } };
    expect(parameterNames(deep)).toEqual(["a", "b", "c", "d"]);
  });

  it("issue 16: a schema nesting items and unions 100,000 deep is read without recursion past a bound", () => {
    let node: Record<string, unknown> = { type: "object", properties: { leaf: {} } };
    for (let i = 0; i < 100_000; i++) node = i % 2 ? { items: node } : { anyOf: [node] };
    expect(parameterNames({ type: "object", properties: { top: node } })).toEqual(["top"]);
  });

  it("CT-23 zod and JSON Schema tools are read through the AI SDK", () => {
    expect(readToolDocument("write_file", tool({ description: "Write a file.", inputSchema: z.object({ path: z.string(), content: z.string() }) }))).toEqual({
      name: "write_file",
      description: "Write a file.",
      params: ["path", "content"],
    });
    expect(readToolDocument("t", tool({ inputSchema: jsonSchema({ type: "object", properties: { q: {} } }) }))).toEqual({ name: "t", description: "", params: ["q"] });
  });

  it("issue 19: a tool reads as a document exactly when its own document would equal it", () => {
    const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object" as const, properties, ...extra });
    const schemas = [
      object({ path: {}, content: {} }),
      object({ content: {}, path: {} }),
      object({ path: {} }),
      object({ path: {}, content: {}, mode: {} }),
      object({ path: object({ dir: {} }), content: {} }),
      object({ path: {}, content: {} }, { anyOf: [object({ path: {} }), object({ content: {}, extra: {} })] }),
      object({ path: {}, content: {} }, { items: [object({ path: {} })], oneOf: [object({ content: {} })] }),
      object({ a: object({ b: object({ c: object({ d: object({ deep: {} }) }) }) }) }),
      object({ a: object({ b: object({ c: object({ d: object({ other: {} }) }) }) }) }),
      object({}),
    ];
    const read = (schema: (typeof schemas)[number], description = "Write a file.") => readToolDocument("t", tool({ description, inputSchema: jsonSchema(schema) })) as ToolDocument;
    for (const held of schemas) {
      for (const offered of schemas) {
        const same = JSON.stringify(read(held)) === JSON.stringify(read(offered));
        expect(describesTool(read(held), tool({ description: "Write a file.", inputSchema: jsonSchema(offered) }))).toBe(same);
      }
      expect(describesTool(read(held), tool({ description: "Write a note.", inputSchema: jsonSchema(held) }))).toBe(false);
    }
  });

  it("issue 19: a lazy schema does not read as any document (only reading it tells)", () => {
    const lazy = jsonSchema(async () => ({ type: "object" as const, properties: {} }));
    expect(describesTool({ name: "t", description: "", params: [] }, tool({ inputSchema: lazy }))).toBe(false);
  });
});
