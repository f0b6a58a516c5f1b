import { FileScheme, ResourceError } from "koishi-plugin-ishiki";
import type { FileEntry, FileUrl, ResourceFileSystem } from "koishi-plugin-ishiki";
import type { Sandbox } from "../sandbox.js";
import { sandboxFileSystem } from "./sandbox-file-system.js";

/**
 * `workspace://<absolute sandbox path>` (WS-21): a FileScheme over the sandbox file system, so a URL reads
 * exactly what `cat` sees; pages continue on the URL itself. Content can change: nothing is immutable.
 */
export class WorkspaceScheme extends FileScheme {
  public readonly scheme = "workspace";
  private readonly filesystem: ResourceFileSystem;

  public constructor(sandbox: Sandbox) {
    super();
    this.filesystem = sandboxFileSystem(sandbox);
  }

  protected open(url: FileUrl): FileEntry {
    if (url.authority !== "") {
      throw new ResourceError(
        "invalid_resource_uri",
        `${url.url.slice(0, 200)}: workspace:// takes an absolute sandbox path; use workspace:///home/workspace/<file>`,
      );
    }
    return { path: `/${url.segments.join("/")}`, filesystem: this.filesystem, immutable: false };
  }
}
