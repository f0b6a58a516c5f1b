import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { GatewayConfig } from "./config.js";
import { GatewayError } from "./errors.js";

/**
 * Reads `<dataPath>/models.yaml` (spec 02 GW-1). A missing file is no configuration and is not created;
 * unreadable YAML fails with the file's path. Entries are validated when the gateway builds them. Synchronous,
 * as it runs once while the plugin is constructed: the gateway is then built from every source at once, so one
 * broken entry costs only itself (spec 08 KP-38) instead of failing an atomic `reconfigure` of all of them.
 */
export function readModelsFile(path: string): GatewayConfig | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new GatewayError(`${path}: cannot be read: ${(error as Error).message}`, { cause: error });
  }
  try {
    return (parse(text) ?? undefined) as GatewayConfig | undefined;
  } catch (error) {
    throw new GatewayError(`${path}: invalid YAML: ${(error as Error).message.split("\n")[0]}`, { cause: error });
  }
}
