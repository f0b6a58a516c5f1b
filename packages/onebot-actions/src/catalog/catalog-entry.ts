/** Where an action belongs in the catalog (OB-4). */
export type ActionCategory = "message" | "group" | "member" | "friend" | "file" | "info" | "system";

/** `read` < `write` < `destructive`; `secret` actions are never exposed (OB-6). */
export type ActionRisk = "read" | "write" | "destructive" | "secret";

/** Which parameter names the target that OB-12's scope rules check. */
export type ActionScope = "group" | "user" | "message" | "none";

export type Implementation = "onebot11" | "napcat" | "llbot" | "snowluma";

/** A JSON Schema object as written in the catalog sources. */
export type CatalogSchema = Record<string, unknown>;

/** One OneBot action of the build-time catalog (OB-4), compiled from `catalog/*.yaml`. */
export interface CatalogEntry {
  readonly action: string;
  /** One line. */
  readonly summary: string;
  readonly description: string;
  readonly params: CatalogSchema;
  readonly result?: CatalogSchema;
  readonly category: ActionCategory;
  readonly risk: ActionRisk;
  readonly scope: ActionScope;
  readonly implementations: readonly Implementation[];
  /** JSON pointers of parameters that carry files. */
  readonly mediaParams: readonly string[];
}

export const CATEGORIES: readonly ActionCategory[] = ["message", "group", "member", "friend", "file", "info", "system"];
export const IMPLEMENTATIONS: readonly Implementation[] = ["onebot11", "napcat", "llbot", "snowluma"];
