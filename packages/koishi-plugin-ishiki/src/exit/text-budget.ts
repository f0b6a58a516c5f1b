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

/** A readable form produced in pieces: its whole text when it fits one page, else page one of its archive. */
export type PiecesBudget = { fits: true; text: string } | { fits: false; page: string };

/**
 * The text budget (04 EX-8) for a readable form produced in pieces: pieces are read until the page budget is
 * exceeded; an overflowing text is then archived as the rest is produced, counting its lines and units on the
 * way, so it is never held whole. Errors of the producer pass through as they are.
 */
export async function budgetPieces(scope: ArchiveScope, pieces: Iterator<string>, mediaType: ArchiveContent["mediaType"]): Promise<PiecesBudget> {
  const head: string[] = [];
  let units = 0;
  let newlines = 0;
  let last = "";
  const count = (piece: string) => {
    units += piece.length;
    for (let i = piece.indexOf("\n"); i >= 0; i = piece.indexOf("\n", i + 1)) newlines++;
    if (piece.length > 0) last = piece;
  };
  let done = false;
  while (units <= PAGE_UNITS && newlines <= PAGE_LINES) {
    const step = pieces.next();
    if (step.done) {
      done = true;
      break;
    }
    head.push(step.value);
    count(step.value);
  }
  const text = head.join("");
  if (done && fitsPage(text)) return { fits: true, text };
  let failure: unknown;
  const all = function* (): Generator<string> {
    yield* head;
    while (!done) {
      let step: IteratorResult<string>;
      try {
        step = pieces.next();
      } catch (error) {
        failure = error;
        throw error;
      }
      if (step.done) done = true;
      else {
        count(step.value);
        yield step.value;
      }
    }
  };
  let url: string;
  try {
    url = await scope.resources.store.writeArtifact(scope.toolName, all(), { mediaType, toolName: scope.toolName, toolCallId: scope.toolCallId });
  } catch (error) {
    if (error === failure) throw error;
    throw new ArchiveError(`${scope.toolName}: could not archive the output of call ${scope.toolCallId}: ${toolErrorText(error)}`, { cause: error });
  }
  const totalLines = newlines + (units > 0 && !last.endsWith("\n") ? 1 : 0);
  return { fits: false, page: pageText(text, { url, offset: 0, line: 1, totalLines, totalChars: units, selectedEnd: units }).display };
}
