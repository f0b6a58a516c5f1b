/**
 * The file view a FileScheme reads through: the host file system, or a sandbox's virtual one (RS-17, RS-18).
 * Paths are the file system's own (virtual paths for a sandbox). The optional methods only optimise: results
 * must be identical to what the required methods give.
 */
export interface ResourceFileSystem {
  readFileBuffer(path: string): Promise<Uint8Array>;
  stat(path: string): Promise<{ isFile: boolean; isDirectory: boolean; size: number; mtimeMs?: number }>;
  /** Names of the directory's entries, without `.` and `..`. */
  readdir(path: string): Promise<string[]>;
  /** The file decoded as UTF-8, in chunks, so large files can be scanned without loading them whole. */
  readText?(path: string, options?: { signal?: AbortSignal }): AsyncIterable<string>;
  /** At most the first `maxBytes` bytes, for binary detection and media sniffing. */
  readFilePrefix?(path: string, maxBytes: number): Promise<Uint8Array>;
}
