/**
 * A parsed FileScheme URL `scheme://authority/path[:selectors][?view=<name>][#offset=N[&end=L]]` (RS-5..RS-12).
 * `segments` are the non-empty path segments, percent-decoded; none is `.` or `..` or holds `/`, `\` or NUL.
 */
export interface FileUrl {
  /** The URL as requested. */
  url: string;
  scheme: string;
  authority: string;
  /** The raw path after the authority (still percent-encoded), `""` or starting with `/`. */
  path: string;
  segments: string[];
  view?: string;
  /** Composed line selection, 1-based and inclusive. */
  selection?: { start: number; end?: number };
  /** `#offset=N[&end=L]`: a UTF-16 offset into the stable readable text and an optional last line. */
  offset?: { offset: number; end?: number };
}
