import { mkdir, realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";

/** A validated `source:target[:ro]` declaration (WS-4). */
export interface MountDeclaration {
  /** Absolute host path (before `realpath`). */
  source: string;
  /** Absolute sandbox path, normalised. */
  target: string;
  readOnly: boolean;
}

/** A mount ready to use: its source's `realpath` is stored, so containment compares real paths (WS-6). */
export interface HostMount extends MountDeclaration {
  root: string;
}

function invalid(declaration: string, reason: string): Error {
  return new Error(`workspace mount "${declaration}": ${reason}`);
}

/** Splits at the last colon before an optional `:ro`, so a drive letter in the source survives. */
export function parseMount(declaration: string, profileRoot: string): MountDeclaration {
  const readOnly = declaration.endsWith(":ro");
  const body = readOnly ? declaration.slice(0, -3) : declaration;
  const colon = body.lastIndexOf(":");
  if (colon <= 0) throw invalid(declaration, "expected source:target[:ro]; e.g. data:/data:ro");
  const source = body.slice(0, colon);
  const rawTarget = body.slice(colon + 1);
  if (!rawTarget.startsWith("/")) throw invalid(declaration, `target "${rawTarget}" must be an absolute sandbox path`);
  const segments = rawTarget.split("/").filter(Boolean);
  if (segments.some((segment) => segment === "." || segment === "..")) throw invalid(declaration, "target must not contain . or .. segments");
  if (rawTarget.includes("\0") || source.includes("\0")) throw invalid(declaration, "NUL is not allowed in a path");
  const target = `/${segments.join("/")}`;
  if (target === "/") throw invalid(declaration, "target must not be /");
  if (target === "/home" || target.startsWith("/home/")) throw invalid(declaration, "target must not be /home or below it; /home is the runtime's own layout");
  return { source: resolve(profileRoot, source), target, readOnly };
}

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/**
 * Validates every declaration, then creates the missing read-write sources and resolves each source's
 * `realpath`. Nothing is created unless all declarations are valid (QA-5): duplicate or nested targets, a
 * missing read-only source, or a source that is not a directory fail the whole set.
 */
export async function prepareMounts(declarations: readonly string[], profileRoot: string): Promise<HostMount[]> {
  const parsed = declarations.map((declaration) => ({ declaration, mount: parseMount(declaration, profileRoot) }));
  for (const [index, { declaration, mount }] of parsed.entries()) {
    const clash = parsed.slice(0, index).find((other) => overlaps(other.mount.target, mount.target));
    if (clash) throw invalid(declaration, `target ${mount.target} ${clash.mount.target === mount.target ? "duplicates" : "nests with"} the mount "${clash.declaration}"`);
  }
  const missing: MountDeclaration[] = [];
  for (const { declaration, mount } of parsed) {
    const info = await stat(mount.source).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw invalid(declaration, `source cannot be read: ${error.code ?? error.message}`);
    });
    if (info === undefined) {
      if (mount.readOnly) throw invalid(declaration, "read-only source does not exist; create it or drop :ro");
      missing.push(mount);
    } else if (!info.isDirectory()) {
      throw invalid(declaration, "source is not a directory");
    }
  }
  for (const mount of missing) await mkdir(mount.source, { recursive: true });
  return Promise.all(parsed.map(async ({ mount }) => ({ ...mount, root: await realpath(mount.source) })));
}
