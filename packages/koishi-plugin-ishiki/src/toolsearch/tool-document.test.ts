import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parameterNames, readToolDocument } from "./tool-document.js";

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
});
