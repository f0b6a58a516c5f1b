import { tool } from "ai";
import { SEARCH_CODEMODE_NOTE, SEARCH_TOOL_DESCRIPTION, searchInputSchema, searchOutputSchema, type SearchInput, type SearchOutput } from "../toolsearch/index.js";

export interface SearchToolOptions {
  /** Runs one query over the deferred pool; the runtime records the `new` hits for the next step (CT-27). */
  search(query: string): SearchOutput | Promise<SearchOutput>;
  /**
   * With codemode on: how the model calls a hit (`inside codemode programs as await tools.<name>(input)`), so
   * the result never suggests a direct call that would fail (issue 20). Absent without codemode.
   */
  callOf?(name: string): string | undefined;
}

/**
 * The `search` tool (spec 05 CT-22): fixed description, `{ query }` in, `{ tools, note? }` out. With codemode on
 * the description says so once and every hit carries `call`.
 */
export function createSearchTool(options: SearchToolOptions) {
  const { callOf } = options;
  return tool<SearchInput, SearchOutput, {}>({
    description: callOf ? `${SEARCH_TOOL_DESCRIPTION} ${SEARCH_CODEMODE_NOTE}` : SEARCH_TOOL_DESCRIPTION,
    inputSchema: searchInputSchema,
    outputSchema: searchOutputSchema,
    execute: async ({ query }) => {
      const output = await options.search(query);
      if (!callOf) return output;
      return {
        ...output,
        tools: output.tools.map((hit) => {
          const call = callOf(hit.name);
          return call === undefined ? hit : { ...hit, call };
        }),
      };
    },
  });
}
