import { join, sep } from "node:path";
import { containPath } from "./contain-path.js";
import type { FileEntry } from "./file-entry.js";
import { FileScheme } from "./file-scheme.js";
import type { FileUrl } from "./file-url.js";
import { ResourceError } from "./resource-error.js";
import { quote } from "./quote.js";

/**
 * `local://<relative path>`: files in the runtime home on the host, confined with `containPath` (RS-25).
 * The store under `resources/` is refused: its sidecars hold sources; stored content is read through
 * `asset://` and `artifact://`.
 */
export class LocalScheme extends FileScheme {
  public readonly scheme = "local";
  private readonly home: string;

  public constructor(home: string) {
    super();
    this.home = home;
  }

  protected async open(file: FileUrl): Promise<FileEntry> {
    if (file.authority === "") {
      throw new ResourceError("invalid_resource_uri", `${quote(file.url)}: local:// paths are relative to the runtime home; write local://<path>`);
    }
    const segments = [file.authority, ...file.segments];
    const refused = () => new ResourceError("resource_not_found", `${quote(file.url)}: the store is read through asset:// and artifact:// URLs`);
    if (segments[0] === "resources") throw refused();
    const path = await containPath(this.home, join(this.home, ...segments), "local");
    const store = await containPath(this.home, "resources", "local");
    if (path === store || path.startsWith(store + sep)) throw refused();
    return { path, immutable: false };
  }
}
