/** The custom message type of catalog updates in the fact stream (spec 05 CT-30). */
export const CATALOG_MESSAGE_TYPE = "ishiki.tools.catalog";

/** `codemode` when codemode is on (catalogs list program-callable tools), else `direct` (spec 05 CT-32). */
export type CatalogMode = "codemode" | "direct";

/** A tool a catalog makes visible; `signature` is its TypeScript declaration in `codemode` mode. */
export interface CatalogTool {
  readonly name: string;
  readonly description: string;
  readonly signature?: string;
}

/**
 * The persisted data of one catalog message (spec 05 CT-33). `visible` is the whole visible set after this
 * message (in `codemode` mode: the visible program-callable tools), so the latest message alone restores it;
 * `text` is exactly what the model sees as a user message.
 */
export interface CatalogData {
  readonly version: 1;
  readonly kind: "baseline" | "delta";
  readonly mode: CatalogMode;
  readonly added: readonly CatalogTool[];
  readonly removed: readonly string[];
  readonly visible: readonly string[];
  readonly text: string;
}

/** What the persisted catalogs say is visible now. */
export interface CatalogState {
  readonly mode: CatalogMode;
  readonly visible: readonly string[];
}
