/**
 * Where a FileScheme text came from, as plain data (no closure, no cross-call cache): the unified exit pages it
 * and builds continuations (`<url>#offset=<y>[&end=<L>]`) from these fields alone (RS-20, RS-37).
 */
export interface FileSource {
  kind: "file";
  /** The resource URL without selector, query or fragment. */
  url: string;
  /** 1-based lines: `start` holds the text's first unit, `end` is the requested last line (kept as `&end=`). */
  range?: { start: number; end?: number };
  /** UTF-16 offset of the text's first unit in the stable readable text; absent means 0. */
  offset?: number;
  /**
   * UTF-16 offset where the requested text ends, present only when `text` holds just a first page (a direct
   * read); absent means `text` is the complete selection.
   */
  selectedEnd?: number;
  /** Lines of the whole readable text (`\n`-separated; a trailing `\n` starts no line). */
  totalLines: number;
  /** UTF-16 units of the whole readable text. */
  totalChars: number;
}
