import { z } from "zod";

/** The `search` tool's name, a kernel-reserved name (07 XA-11). */
export const SEARCH_TOOL_NAME = "search";

/** The fixed description of `search` (spec 05 CT-22): it never lists tools, so it stays the same all session. */
export const SEARCH_TOOL_DESCRIPTION =
  "Find more tools. Only some tools are loaded at first; the others are found here. Query with what you want " +
  "to do, in English or Chinese, or with a tool name or a parameter name. Matching tools with status \"new\" " +
  "become callable from your next step; \"available\" tools are already callable.";

/** The note of an empty result (spec 05 CT-22). */
export const SEARCH_NO_MATCH_NOTE =
  "No matching tools. Try other words (English or Chinese), a tool name, or a parameter name.";

/** Longest query in UTF-16 code units. */
export const MAX_QUERY_UNITS = 200;

/** Input of `search`: 1-200 UTF-16 code units, no other keys. */
export const searchInputSchema = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(MAX_QUERY_UNITS)
    // zod's `max` counts code points; the limit is in UTF-16 code units, as every size in the spec.
    .refine((query) => query.length <= MAX_QUERY_UNITS, `query: longer than ${MAX_QUERY_UNITS} UTF-16 code units`)
    .describe("What you want to do, a tool name or a parameter name"),
});

export const searchHitSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  status: z.enum(["new", "available"]),
  /** With codemode on: where the tool is callable, e.g. `inside codemode programs as await tools.bash(input)` (issue 20). */
  call: z.string().optional(),
});

/** What `search` adds to its fixed description when codemode is on: the hits' `call` says where each one runs. */
export const SEARCH_CODEMODE_NOTE =
  "With codemode on, each hit's call field says how to call it: most tools are callable only inside codemode programs as await tools.<name>(input), not directly.";

/** Output of `search`: `note` is present exactly when `tools` is empty. */
export const searchOutputSchema = z.strictObject({
  tools: z.array(searchHitSchema),
  note: z.literal(SEARCH_NO_MATCH_NOTE).optional(),
});

export type SearchInput = z.infer<typeof searchInputSchema>;
export type SearchHit = z.infer<typeof searchHitSchema>;
export type SearchOutput = z.infer<typeof searchOutputSchema>;
