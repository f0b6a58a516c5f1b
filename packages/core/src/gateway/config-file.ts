import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import type { GatewayConfig } from "./config.js";
import { GatewayError } from "./errors.js";

/**
 * Reads `<dataPath>/models.yaml` (spec 02 GW-1). A missing file is no configuration and is not created;
 * unreadable YAML fails with the file's path. Entries are validated when the gateway builds them.
 */
export async function readModelsFile(path: string): Promise<GatewayConfig | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
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
