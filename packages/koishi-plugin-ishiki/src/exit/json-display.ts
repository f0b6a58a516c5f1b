import type { ToolResultOutput } from "@ai-sdk/provider-utils";
import type { JSONValue } from "@ai-sdk/provider";
import type { ArchiveScope } from "./archive.js";
import { normalisedJson } from "./json.js";
import { prettyJsonPieces } from "./pretty-json.js";
import { budgetPieces, type PiecesBudget } from "./text-budget.js";

/**
 * A JSON result shaped for the model (04 EX-7, EX-8): when its pretty JSON fits one page, the normalised value
 * (short results keep their native shape); otherwise page one of the archived pretty JSON.
 */
export async function displayJson(scope: ArchiveScope, value: unknown): Promise<ToolResultOutput> {
  let budget: PiecesBudget;
  try {
    budget = await budgetPieces(scope, prettyJsonPieces(value), "application/json");
  } catch (error) {
    // The native serialiser refuses BigInt and cycles: normalise by hand, which also names a cycle's path.
    if (!(error instanceof TypeError)) throw error;
    budget = await budgetPieces(scope, [normalisedJson(value)].values(), "application/json");
  }
  return budget.fits ? { type: "json", value: JSON.parse(budget.text) as JSONValue } : { type: "text", value: budget.page };
}
