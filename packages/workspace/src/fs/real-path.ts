import { lstat, readlink, realpath } from "node:fs/promises";
import { basename, dirname, resolve, sep } from "node:path";

/**
 * The real path of a host path; for a path that does not exist yet, its deepest existing ancestor's real path
 * plus the rest. A dangling symlink is followed to where it points, so it cannot smuggle a write outside.
 */
export async function realOrPending(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const parent = dirname(path);
    if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === path) throw error;
    const link = await lstat(path).catch(() => undefined);
    if (link?.isSymbolicLink()) return realOrPending(resolve(parent, await readlink(path)));
    return resolve(await realOrPending(parent), basename(path));
  }
}

/** Whether `real` is `root` or below it; `root` must itself be a real path. A string prefix alone is not enough. */
export function isWithin(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}
