import { PAGE_LINES, PAGE_UNITS, countLines, pageOriginOf, pageText, type FileSource } from "../resources/index.js";
import { ArchiveError, type ArchiveScope } from "./archive.js";
import { toolErrorText } from "./error-text.js";

/** Whether a readable form fits one page (03 RS-36, RS-37): exactly the budget still fits. */
export function fitsPage(text: string): boolean {
  return text.length <= PAGE_UNITS && countLines(text) <= PAGE_LINES;
}

/** What is archived when a display overflows: the complete display content, and its readable view if different. */
export interface ArchiveContent {
  mediaType: "text/plain" | "application/json";
  /** Defaults to the readable text itself. */
  blob?: string;
  view?: string;
}

/**
 * The model's text for a readable form (04 EX-8): the text itself when it fits, else it is archived once and
 * the model gets page one with the trailer pointing at the artifact.
 */
export async function budgetText(scope: ArchiveScope, text: string, content: ArchiveContent): Promise<string> {
  if (fitsPage(text)) return text;
  let url: string;
  try {
    url = await scope.resources.store.writeArtifact(
      scope.toolName,
      content.blob ?? text,
      { mediaType: content.mediaType, toolName: scope.toolName, toolCallId: scope.toolCallId },
      content.view,
    );
  } catch (error) {
    throw new ArchiveError(`${scope.toolName}: could not archive the output of call ${scope.toolCallId}: ${toolErrorText(error)}`, { cause: error });
  }
  return pageText(text, pageOriginOf(text, undefined, url)).display;
}

/** FileScheme text pages on its own source (03 RS-40, 04 EX-10): never copied into an artifact. */
export function pageOnSource(text: string, source: FileSource, url: string): string {
  return pageText(text, pageOriginOf(text, source, url)).display;
}
