import type { IshikiCatalogTool, IshikiToolsCatalog } from "../types/index.js";

/** The custom message type of catalog updates in the fact stream (spec 05 CT-30). */
export const CATALOG_MESSAGE_TYPE = "ishiki.tools.catalog";

/** `codemode` when codemode is on (catalogs list program-callable tools), else `direct` (spec 05 CT-32). */
export type CatalogMode = IshikiToolsCatalog["mode"];

/** A tool a catalog makes visible; `signature` is its TypeScript declaration in `codemode` mode. */
export type CatalogTool = IshikiCatalogTool;

/**
 * The persisted data of one catalog message (spec 05 CT-33), the `ishiki.tools.catalog` message data of
 * `types/`. `visible` is the whole visible set after this message (in `codemode` mode: the visible
 * program-callable tools), so the latest message alone restores it; `text` is exactly what the model sees.
 */
export type CatalogData = IshikiToolsCatalog;

/** What the persisted catalogs say is visible now. */
export interface CatalogState {
  readonly mode: CatalogMode;
  readonly visible: readonly string[];
}
