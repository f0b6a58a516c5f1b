import { posix } from "node:path";
import { ToolError } from "koishi-plugin-ishiki";
import { errorCode } from "../fs/fs-error.js";

/** A tool's `path` as an absolute sandbox path: absolute as given, else relative to `cwd`; `..` stays virtual. */
export function toolPath(cwd: string, path: string): string {
  if (path.includes("\0")) throw new ToolError("EINVAL: NUL is not allowed in a path");
  if (path.trim() === "") throw new ToolError("EINVAL: path is empty; give an absolute path or one relative to the working directory");
  return posix.resolve(cwd, path);
}

/** The exact text the model sees for a failed file operation on `path` (WS-14, WS-15). */
export function fsFailure(path: string, error: unknown): ToolError {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return new ToolError(`ENOENT: no such file: ${path}`);
    case "EROFS":
      return new ToolError(`EROFS: read-only file system: ${path}`);
    case "EISDIR":
      return new ToolError(`EISDIR: is a directory: ${path}; list it with bash ls`);
    case "EACCES":
    case "ENOTSUP":
    case "EINVAL":
    case "ENOSPC":
    case "EFBIG":
      // Already `<CODE>: <reason>` in our own words (HostFs), and free of host paths.
      return new ToolError(message.startsWith(`${code}:`) ? message.split("\n")[0] : `${code}: ${path}`);
    default:
      return new ToolError(`${path}: ${code ?? "operation failed"}`);
  }
}
