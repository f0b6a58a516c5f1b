import type { Implementation } from "./catalog/catalog-entry.js";

/** OB-7: the implementation named by `get_version_info.app_name`; unknown names mean plain `onebot11`. */
export function implementationOf(appName: unknown): Implementation {
  const name = String(appName ?? "").toLowerCase();
  if (name.includes("napcat")) return "napcat";
  if (name.includes("llonebot") || name.includes("llbot")) return "llbot";
  if (name.includes("snowluma")) return "snowluma";
  return "onebot11";
}
