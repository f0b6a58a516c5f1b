import type { CatalogData, CatalogState } from "./catalog-data.js";

/** True for persisted data this version can read; anything else (a future version, a torn entry) is skipped. */
export function isCatalogData(value: unknown): value is CatalogData {
  if (typeof value !== "object" || value === null) return false;
  const data = value as Partial<Record<keyof CatalogData, unknown>>;
  return (
    data.version === 1 &&
    (data.kind === "baseline" || data.kind === "delta") &&
    (data.mode === "codemode" || data.mode === "direct") &&
    Array.isArray(data.visible) &&
    data.visible.every((name) => typeof name === "string") &&
    typeof data.text === "string"
  );
}

/**
 * Rebuilds the visible set from persisted catalog data in stream order (spec 05 CT-31). Each message carries
 * the whole visible set, so the latest readable one decides; `undefined` means no catalog was ever written.
 */
export function foldCatalogs(catalogs: Iterable<unknown>): CatalogState | undefined {
  let state: CatalogState | undefined;
  for (const data of catalogs) {
    if (isCatalogData(data)) state = { mode: data.mode, visible: data.visible };
  }
  return state;
}

/** The discovered set behind a folded state: visible tools that are not resident. */
export function discoveredTools(state: CatalogState | undefined, resident: ReadonlySet<string>): Set<string> {
  return new Set((state?.visible ?? []).filter((name) => !resident.has(name)));
}

/**
 * The latest baseline and every later catalog, in order: what the runtime re-inserts when the context engine's
 * output lacks that baseline (spec 05 CT-34). Empty when no baseline exists.
 */
export function catalogsSinceBaseline(catalogs: readonly CatalogData[]): CatalogData[] {
  for (let i = catalogs.length - 1; i >= 0; i--) if (catalogs[i].kind === "baseline") return catalogs.slice(i);
  return [];
}
