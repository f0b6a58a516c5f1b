import type { IFileSystem } from "just-bash";

/** A file-system error whose message is the exact text a shell command or tool shows (`<CODE>: <reason>`). */
export class FsError extends Error {
  public override readonly name = "FsError";

  public constructor(
    public readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The POSIX code of an error from any file system (just-bash puts it only at the start of the message). */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") return code;
  const message = error instanceof Error ? error.message : undefined;
  return message === undefined ? undefined : /^(E[A-Z]+)\b/.exec(message)?.[1];
}

export function readOnly(path: string): FsError {
  return new FsError("EROFS", `EROFS: read-only file system: ${path}`);
}

export function notFound(path: string): FsError {
  return new FsError("ENOENT", `ENOENT: no such file or directory: ${path}`);
}

/** A directory entry with its type, as just-bash's `readdirWithFileTypes` returns it. */
export type DirentEntry = Awaited<ReturnType<NonNullable<IFileSystem["readdirWithFileTypes"]>>>[number];
