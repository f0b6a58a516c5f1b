import { describe, expect, it } from "vitest";
import { z } from "zod";
import { labelledTools } from "./labelled-set/index.js";
import { DEFAULT_MAX_RESULTS, deferredToolNames, residentToolNames, resolveMaxResults } from "./resident.js";
import { SEARCH_NO_MATCH_NOTE, SEARCH_TOOL_DESCRIPTION, searchInputSchema, searchOutputSchema } from "./search-contract.js";

describe("search tool contract (CT-22)", () => {
  it("CT-22 the query is 1-200 UTF-16 code units", () => {
    expect(searchInputSchema.safeParse({ query: "" }).success).toBe(false);
    expect(searchInputSchema.safeParse({ query: "x" }).success).toBe(true);
    expect(searchInputSchema.safeParse({ query: "写".repeat(200) }).success).toBe(true);
    expect(searchInputSchema.safeParse({ query: "写".repeat(201) }).success).toBe(false);
    // An astral character counts as two units.
    expect(searchInputSchema.safeParse({ query: "😀".repeat(100) }).success).toBe(true);
    expect(searchInputSchema.safeParse({ query: "😀".repeat(100) + "x" }).success).toBe(false);
  });

  it("CT-22 the input takes no extra keys and its JSON Schema says so", () => {
    expect(searchInputSchema.safeParse({ query: "bash", limit: 3 }).success).toBe(false);
    expect(searchInputSchema.safeParse({}).success).toBe(false);
    const schema = z.toJSONSchema(searchInputSchema, { io: "input" });
    expect(schema).toMatchObject({ type: "object", required: ["query"], additionalProperties: false });
    expect(schema.properties?.query).toMatchObject({ type: "string", minLength: 1, maxLength: 200 });
  });

  it("CT-22 the output is tools with name, description and status new|available, plus the note", () => {
    const hit = { name: "bash", description: "Run a command.", status: "new" };
    expect(searchOutputSchema.safeParse({ tools: [hit] }).success).toBe(true);
    expect(searchOutputSchema.safeParse({ tools: [{ ...hit, status: "available" }] }).success).toBe(true);
    expect(searchOutputSchema.safeParse({ tools: [{ ...hit, status: "visible" }] }).success).toBe(false);
    expect(searchOutputSchema.safeParse({ tools: [], note: SEARCH_NO_MATCH_NOTE }).success).toBe(true);
    expect(searchOutputSchema.safeParse({ tools: [], note: "nothing" }).success).toBe(false);
  });

  it("CT-22 the description is fixed and lists no tools", () => {
    for (const { name } of labelledTools) expect(SEARCH_TOOL_DESCRIPTION).not.toContain(name);
    expect(SEARCH_TOOL_DESCRIPTION).toMatch(/English or Chinese/);
    expect(SEARCH_TOOL_DESCRIPTION).toMatch(/next step/);
  });
});

describe("resident set (CT-21)", () => {
  it("CT-21 kernel tools are resident; codemode only when on; plus toolsearch.resident", () => {
    expect([...residentToolNames({}, false)].sort()).toEqual(["finish", "read", "search", "send_message", "wait"]);
    expect(residentToolNames({}, true).has("codemode")).toBe(true);
    expect(residentToolNames({}, false).has("codemode")).toBe(false);
    expect(residentToolNames({ resident: ["bash"] }, false).has("bash")).toBe(true);
  });

  it("CT-21 every other tool is deferred, in tool-set order", () => {
    const tools = { read: 1, bash: 2, finish: 3, write_file: 4, codemode: 5 };
    expect(deferredToolNames(tools, residentToolNames({}, true))).toEqual(["bash", "write_file"]);
    expect(deferredToolNames(tools, residentToolNames({ resident: ["write_file"] }, false))).toEqual(["bash", "codemode"]);
  });

  it("CT-21 maxResults defaults to 5 and accepts 1-20", () => {
    expect(DEFAULT_MAX_RESULTS).toBe(5);
    expect(resolveMaxResults({})).toBe(5);
    expect(resolveMaxResults({ maxResults: 1 })).toBe(1);
    expect(resolveMaxResults({ maxResults: 20 })).toBe(20);
    expect(() => resolveMaxResults({ maxResults: 0 })).toThrow("toolsearch.maxResults: must be an integer from 1 to 20 (got 0)");
    expect(() => resolveMaxResults({ maxResults: 21 })).toThrow(RangeError);
    expect(() => resolveMaxResults({ maxResults: 2.5 })).toThrow(RangeError);
  });
});
