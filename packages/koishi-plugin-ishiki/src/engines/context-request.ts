/** What a context engine learns about the step it prepares (spec 06 EN-6). */
export interface ContextRequest {
  readonly turnId: string;
  readonly signal: AbortSignal;
  /**
   * The stream position of `entries[0]` in `prepareEntries`: 0 when the agent holds the whole history, more
   * when the runtime's retention (issue 19) dropped older entries from memory.
   */
  readonly offset?: number;
}
