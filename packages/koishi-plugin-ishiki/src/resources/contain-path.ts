import { lstat, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, resolve, sep } from "node:path";
import { ResourceError } from "./resource-error.js";

/** The real path of `path`, or, for a path that does not exist yet, its nearest existing ancestor's plus the rest. */
async function realOrPending(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const parent = dirname(path);
    if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === path) throw error;
    // A dangling symlink still points somewhere: confine its target, not its own name.
    const link = await lstat(path).catch(() => undefined);
    if (link?.isSymbolicLink()) return realOrPending(resolve(parent, await readlink(path)));
    return resolve(await realOrPending(parent), basename(path));
  }
}

/**
 * Confines a host path to a root (RS-22, QA-8): resolves the `realpath` of both (symlinks included), requires
 * the result to equal the root or start with root + separator, and returns it. A relative `candidate` is taken
 * relative to the root. Anything else throws `invalid_resource_uri` (`path escapes <scheme> root`); a path
 * that does not exist yet is confined through its nearest existing ancestor.
 */
export async function containPath(root: string, candidate: string, scheme = "resource"): Promise<string> {
  if (candidate.includes("\0") || root.includes("\0")) {
    throw new ResourceError("invalid_resource_uri", `path escapes ${scheme} root; NUL is not allowed in a path`);
  }
  const realRoot = await realpath(root);
  const real = await realOrPending(isAbsolute(candidate) ? candidate : resolve(root, candidate));
  if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
    throw new ResourceError("invalid_resource_uri", `path escapes ${scheme} root`);
  }
  return real;
}
