import type { LanguageModelV4ToolResultPart } from "@ai-sdk/provider";

const TEXT = "JSON parsing failed: Text: ";
const CAUSE = ".\nError message: ";

/**
 * The markup of an invalid call, read back from its error result. The SDK keeps an invalid call with an empty
 * input in the history, but its `InvalidToolInputError` quotes the text that failed to parse
 * (`JSON parsing failed: Text: <input>.\nError message: …`), and the text protocols pass the model's markup as
 * that input. Undefined for any other result.
 */
export function invalidInputOf(output: LanguageModelV4ToolResultPart["output"]): string | undefined {
  if (output.type !== "error-text" && output.type !== "error-json") return undefined;
  const message = typeof output.value === "string" ? output.value : JSON.stringify(output.value);
  const start = message.indexOf(TEXT);
  const end = message.lastIndexOf(CAUSE);
  if (start < 0 || end < start + TEXT.length) return undefined;
  return message.slice(start + TEXT.length, end);
}
