/** The key of an attachment item across requests and restarts (04 EX-20). */
export function toolItemKey(toolCallId: string, index: number): string {
  return `tool:${toolCallId}:${index}`;
}

export function platformItemKey(factEntryId: string, index: number): string {
  return `platform:${factEntryId}:${index}`;
}
