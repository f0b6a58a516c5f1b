import { jsonrepair } from "jsonrepair";
import { z } from "zod";

/** What one v3 answer says (spec 06 EN-41). */
export interface V3Answer {
  thoughts?: { observe?: string; analyze_infer?: string; plan?: string };
  actions: Array<{ function: string; params: Record<string, unknown> }>;
}

const text = z.preprocess((value) => (typeof value === "string" || value === undefined ? value : JSON.stringify(value)), z.string().optional());

const answer = z.object({
  thoughts: z.object({ observe: text, analyze_infer: text, plan: text }).partial().optional().catch(undefined),
  actions: z
    .array(z.object({ function: z.string(), params: z.record(z.string(), z.unknown()).nullish().transform((params) => params ?? {}) }))
    .nullish()
    .transform((actions) => actions ?? []),
});

/**
 * Reads the model's answer: the fenced block if there is one, else the text; prose around the outermost braces
 * stripped, brackets balanced, then `JSON.parse`, then `jsonrepair`. Undefined when nothing fits.
 */
export function parseV3Answer(output: string): V3Answer | undefined {
  const candidate = outermostObject(fencedBlock(output) ?? output);
  if (candidate === undefined) return undefined;
  for (const read of [JSON.parse, (source: string) => JSON.parse(jsonrepair(source))]) {
    try {
      const result = answer.safeParse(read(candidate));
      if (result.success) return result.data as V3Answer;
    } catch {
      // the next reader may succeed
    }
  }
  return undefined;
}

function fencedBlock(output: string): string | undefined {
  const blocks = [...output.matchAll(/```([a-zA-Z]*)[^\n]*\n([\s\S]*?)(?:```|$)/g)];
  const block = blocks.find((match) => match[1].toLowerCase() === "json") ?? blocks[0];
  return block?.[2];
}

/**
 * The outermost JSON object: from the first `{` to the brace that closes it (prose around it stripped); when
 * the answer was cut off, the brackets and string left open are closed.
 */
function outermostObject(source: string): string | undefined {
  const start = source.indexOf("{");
  if (start < 0) return undefined;
  const open: string[] = [];
  let inString = false;
  for (let i = start; i < source.length; i += 1) {
    const char = source[i];
    if (inString) {
      if (char === "\\") i += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{" || char === "[") open.push(char === "{" ? "}" : "]");
    else if ((char === "}" || char === "]") && open.at(-1) === char) {
      open.pop();
      if (open.length === 0) return source.slice(start, i + 1);
    }
  }
  return source.slice(start) + (inString ? '"' : "") + open.reverse().join("");
}
