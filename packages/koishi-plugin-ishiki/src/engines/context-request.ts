/** What a context engine learns about the step it prepares (spec 06 EN-6). */
export interface ContextRequest {
  readonly turnId: string;
  readonly signal: AbortSignal;
}
