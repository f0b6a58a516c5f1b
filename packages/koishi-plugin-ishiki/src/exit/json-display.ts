import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { JSONValue } from "@ai-sdk/provider";
import type { ArchiveScope } from "./archive.js";
import { normalisedJson, ResultJsonError } from "./json.js";
import { prettyJsonPieces } from "./pretty-json.js";
import { budgetPieces, type PiecesBudget } from "./text-budget.js";

/**
 * A JSON result shaped for the model (04 EX-7, EX-8): when its pretty JSON fits one page, the normalised value
 * (short results keep their native shape); otherwise page one of the archived pretty JSON. A value the
 * serialisers cannot walk (nested deeper than their stack) is a ResultJsonError, shown as the call's error.
 */
export async function displayJson(scope: ArchiveScope, value: unknown): Promise<ToolResultOutput> {
  let budget: PiecesBudget;
  try {
    budget = await budgetPieces(scope, prettyJsonPieces(value), "application/json");
  } catch (error) {
    // The native serialiser refuses BigInt and cycles: normalise by hand, which also names a cycle's path.
    if (!(error instanceof TypeError)) throw tooDeep(error);
    try {
      budget = await budgetPieces(scope, [normalisedJson(value)].values(), "application/json");
    } catch (inner) {
      throw tooDeep(inner);
    }
  }
  return budget.fits ? { type: "json", value: JSON.parse(budget.text) as JSONValue } : { type: "text", value: budget.page };
}

function tooDeep(error: unknown): unknown {
  return isStackOverflow(error) ? new ResultJsonError("result cannot be displayed: it nests too deeply") : error;
}

/** V8's stack overflow, as thrown by JSON.stringify or a recursive walk over a deep value. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
