import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolDeclaration, toolDeclarations } from "./declaration.js";
import { schemaToType } from "./schema-type.js";

describe("CT-5 signatures from JSON Schemas", () => {
  it("CT-5 objects with required and optional keys, descriptions as JSDoc, no output schema", () => {
    const declaration = toolDeclaration({
      name: "write_file",
      description: "Write a text file in the workspace.\nOverwrites an existing file.",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: "Absolute path under /home/workspace" },
          content: { type: "string" },
          mode: { type: "integer" },
        },
        required: ["path", "content"],
        additionalProperties: false,
      },
    });
    expect(declaration).toMatchInlineSnapshot(`
      "/**
       * Write a text file in the workspace.
       * Overwrites an existing file.
       */
      declare function write_file(input: {
        /** Absolute path under /home/workspace */
        path: string;
        content: string;
        mode?: number;
      }): Promise<unknown>;"
    `);
  });

  it("CT-5 enum and const become literal unions; arrays, tuples, nullable and unions", () => {
    const type = schemaToType({
      type: "object",
      properties: {
        level: { enum: ["info", "warn", 3, null] },
        kind: { const: "note" },
        tags: { type: "array", items: { type: "string" } },
        pairs: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
        point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }] },
        owner: { type: ["string", "null"] },
        legacy: { type: "string", nullable: true },
        target: { oneOf: [{ type: "object", properties: { id: { type: "string" } }, required: ["id"] }, { type: "null" }] },
        both: { allOf: [{ type: "object", properties: { a: { type: "number" } } }, { type: "object", properties: { b: { type: "number" } } }] },
        anything: {},
      },
      required: ["level"],
    });
    expect(type).toMatchInlineSnapshot(`
      "{
        level: "info" | "warn" | 3 | null;
        kind?: "note";
        tags?: string[];
        pairs?: (string | number)[];
        point?: [number, number];
        owner?: string | null;
        legacy?: string | null;
        target?: {
          id: string;
        } | null;
        both?: {
          a?: number;
        } & {
          b?: number;
        };
        anything?: unknown;
      }"
    `);
  });

  it("CT-5 additionalProperties gives an index signature; local $ref resolves; cycles stop at unknown", () => {
    expect(schemaToType({ type: "object", additionalProperties: { type: "number" } })).toMatchInlineSnapshot(`
      "{
        [key: string]: number;
      }"
    `);
    expect(schemaToType({ type: "object", properties: { a: { type: "string" } }, additionalProperties: true })).toMatchInlineSnapshot(`
      "{
        a?: string;
        [key: string]: unknown;
      }"
    `);
    const tree = {
      $defs: { node: { type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["value"] } },
      $ref: "#/$defs/node",
    };
    expect(schemaToType(tree)).toMatchInlineSnapshot(`
      "{
        value: number;
        children?: unknown[];
      }"
    `);
    expect(schemaToType({ type: "string", format: "uri" })).toBe("string");
    expect(schemaToType({ not: { type: "string" } })).toBe("unknown");
    expect(schemaToType(true)).toBe("unknown");
  });

  it("CT-5 output schemas type the promise; odd names say how to call them", () => {
    const declaration = toolDeclaration({
      name: "mcp.fs-read",
      description: "Reads */ carefully",
      inputSchema: { type: "object", properties: { uri: { type: "string" } } },
      outputSchema: { type: "object", properties: { ok: { type: "boolean" }, ids: { type: "array", items: { type: "string" } } }, required: ["ok", "ids"] },
    });
    expect(declaration).toMatchInlineSnapshot(`
      "/**
       * Reads *\\/ carefully
       *
       * Call as tools["mcp.fs-read"](input).
       */
      declare function mcp_fs_read(input?: {
        uri?: string;
      }): Promise<{
        ok: boolean;
        ids: string[];
      }>;"
    `);
  });

  it("CT-5 a zod schema's JSON Schema converts, and the output is deterministic", () => {
    const inputSchema = z.toJSONSchema(
      z.object({ query: z.string().describe("Words to look for"), limit: z.number().int().default(5), scope: z.enum(["all", "mine"]).optional() }),
      { io: "input" },
    ) as Record<string, unknown>;
    const tools = [
      { name: "search_notes", description: "Search notes.", inputSchema },
      { name: "send_message", description: "Send a message.", inputSchema: { type: "object", properties: { content: { type: "string" } }, required: ["content"] } },
    ];
    const first = toolDeclarations(tools);
    expect(toolDeclarations(structuredClone(tools))).toBe(first);
    expect(first).toMatchInlineSnapshot(`
      "/** Search notes. */
      declare function search_notes(input: {
        /** Words to look for */
        query: string;
        limit?: number;
        scope?: "all" | "mine";
      }): Promise<unknown>;

      /** Send a message. */
      declare function send_message(input: {
        content: string;
      }): Promise<unknown>;"
    `);
  });
});
