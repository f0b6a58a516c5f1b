import { tool } from "ai";
import { SEARCH_TOOL_DESCRIPTION, searchInputSchema, searchOutputSchema, type SearchInput, type SearchOutput } from "../toolsearch/index.js";

export interface SearchToolOptions {
  /** Runs one query over the deferred pool; the runtime records the `new` hits for the next step (CT-27). */
  search(query: string): SearchOutput;
}

/** The `search` tool (spec 05 CT-22): fixed description, `{ query }` in, `{ tools, note? }` out. */
export function createSearchTool(options: SearchToolOptions) {
  return tool<SearchInput, SearchOutput, {}>({
    description: SEARCH_TOOL_DESCRIPTION,
    inputSchema: searchInputSchema,
    outputSchema: searchOutputSchema,
    execute: async ({ query }) => options.search(query),
  });
}
