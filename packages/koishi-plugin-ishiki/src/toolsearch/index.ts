export { tokenize } from "./tokenizer.js";
export { parameterNames, readToolDocument, type ToolDocument } from "./tool-document.js";
export { ToolIndex } from "./tool-index.js";
export { ToolSearch } from "./tool-search.js";
export { sharedToolIndexes, ToolIndexRegistry, type SharedToolIndex } from "./shared-tool-index.js";
export {
  DEFAULT_MAX_RESULTS,
  KERNEL_RESIDENT_TOOLS,
  MAX_RESULTS_LIMIT,
  deferredToolNames,
  residentToolNames,
  resolveMaxResults,
  type ToolsearchOptions,
} from "./resident.js";
export {
  MAX_QUERY_UNITS,
  SEARCH_CODEMODE_NOTE,
  SEARCH_NO_MATCH_NOTE,
  SEARCH_TOOL_DESCRIPTION,
  SEARCH_TOOL_NAME,
  searchHitSchema,
  searchInputSchema,
  searchOutputSchema,
  type SearchHit,
  type SearchInput,
  type SearchOutput,
} from "./search-contract.js";
export {
  CATALOG_MESSAGE_TYPE,
  type CatalogData,
  type CatalogMode,
  type CatalogState,
  type CatalogTool,
} from "./catalog-data.js";
export { catalogText, firstSentence } from "./catalog-text.js";
export { catalogUpdate, type CatalogUpdateInput } from "./catalog-update.js";
export { catalogsSinceBaseline, discoveredTools, foldCatalogs, isCatalogData } from "./catalog-fold.js";
