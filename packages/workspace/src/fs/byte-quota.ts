import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { FsError } from "./fs-error.js";

/** Entries counted at most when the quota first measures what is already on disk; beyond, the count stops. */
const MAX_MEASURED_ENTRIES = 1_000_000;

async function bytesUnder(root: string): Promise<number> {
  let total = 0;
  let entries = 0;
  const pending = [root];
  while (pending.length > 0 && entries < MAX_MEASURED_ENTRIES) {
    const dir = pending.pop()!;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      entries++;
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (info?.isDirectory()) pending.push(path);
      else if (info?.isFile()) total += info.size;
    }
  }
  return total;
}

/**
 * The byte budget of one workspace (issue 16): every writable host mount of a sandbox draws on it, so a program
 * cannot fill the host's disk. What is on disk is measured once, at the first change; afterwards every write,
 * append, copy and removal through the sandbox adjusts the count. Changes made on the host directly are seen at
 * the next measurement only (the process's next sandbox).
 */
export class ByteQuota {
  private used: number | undefined;
  private measuring: Promise<void> | undefined;

  public constructor(
    public readonly limit: number,
    private readonly roots: readonly string[],
  ) {}

  private async ready(): Promise<void> {
    while (this.used === undefined) {
      if (!this.measuring) {
        const measuring: Promise<void> = Promise.all(this.roots.map(bytesUnder)).then((sizes) => {
          // A count dropped meanwhile (`forget`) is measured again.
          if (this.measuring === measuring) this.used = sizes.reduce((a, b) => a + b, 0);
        });
        this.measuring = measuring;
      }
      await this.measuring;
    }
  }

  /** Takes `bytes` more from the budget, or throws `ENOSPC` naming `path` (a sandbox path) and the figures. */
  public async reserve(bytes: number, path: string): Promise<void> {
    await this.ready();
    // Check and update run without a yield in between, so concurrent writes cannot both pass on one remainder.
    const used = this.used!;
    if (bytes > 0 && used + bytes > this.limit) {
      throw new FsError(
        "ENOSPC",
        `ENOSPC: workspace quota exceeded: ${path} needs ${bytes} more bytes, ${used} of ${this.limit} bytes are in use; delete files to make room`,
      );
    }
    this.used = Math.max(0, used + bytes);
  }

  /** Drops the count; the next change measures the disk again (after removing a whole tree). */
  public forget(): void {
    this.used = undefined;
    this.measuring = undefined;
  }

  /** Returns `bytes` to the budget (a file shrank or was removed). */
  public async give(bytes: number): Promise<void> {
    if (bytes > 0) await this.reserve(-bytes, "");
  }
}
