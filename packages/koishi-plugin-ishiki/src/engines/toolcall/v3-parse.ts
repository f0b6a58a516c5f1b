import { jsonrepair } from "jsonrepair";
import { z } from "zod";

/** One action of a v3 answer: its params, or the one-line defect that kept them from being read. */
export type V3Action = { function: string; params: Record<string, unknown> } | { function: string; defect: string; raw: string };

/** What one v3 answer says (spec 06 EN-41). */
export interface V3Answer {
  thoughts?: { observe?: string; analyze_infer?: string; plan?: string };
  actions: V3Action[];
}

const text = z.preprocess((value) => (typeof value === "string" || value === undefined ? value : JSON.stringify(value)), z.string().optional());

const answer = z.object({
  thoughts: z.object({ observe: text, analyze_infer: text, plan: text }).partial().optional().catch(undefined),
  actions: z
    .array(z.unknown())
    .nullish()
    .transform((actions) => actions ?? []),
});

/**
 * Reads the model's answer: the fenced `json` block if there is one, else the text; prose around the outermost
 * braces stripped, brackets balanced, then `JSON.parse`, then `jsonrepair`. Undefined when nothing fits. The
 * value's end is found by counting brackets outside strings, so a code fence inside a string (a message carrying
 * markdown) never cuts the answer. Actions without a function name are dropped; an action whose params are not
 * an object keeps its name and says why, so the model is told rather than ignored.
 */
export function parseV3Answer(output: string): V3Answer | undefined {
  const candidate = outermostObject(fencedBlock(output) ?? output);
  if (candidate === undefined) return undefined;
  for (const read of [JSON.parse, (source: string) => JSON.parse(jsonrepair(source))]) {
    try {
      const result = answer.safeParse(read(candidate));
      if (result.success) return { ...(result.data.thoughts === undefined ? {} : { thoughts: result.data.thoughts }), actions: result.data.actions.flatMap(readAction) };
    } catch {
      // the next reader may succeed
    }
  }
  return undefined;
}

/** An action as written: `{function, params}`; params given as a JSON string are read once more. */
export function readAction(value: unknown): V3Action[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  const action = value as Record<string, unknown>;
  const name = typeof action.function === "string" ? action.function : typeof action.name === "string" ? action.name : undefined;
  if (name === undefined) return [];
  let params = action.params ?? action.parameters ?? action.arguments;
  if (typeof params === "string") {
    try {
      params = params.trim() === "" ? {} : JSON.parse(params);
    } catch {
      // reported below as not an object
    }
  }
  if (params === undefined || params === null) return [{ function: name, params: {} }];
  if (typeof params === "object" && !Array.isArray(params)) return [{ function: name, params: params as Record<string, unknown> }];
  const got = Array.isArray(params) ? "an array" : typeof params;
  return [{ function: name, defect: `"params" must be a JSON object of parameters, got ${got}`, raw: JSON.stringify(value) }];
}

/**
 * From the ```json fence's opening (any fence when none says json) to the end: the object scan finds its end.
 * Only fences before the first `{` count; later ones are inside the answer's strings.
 */
function fencedBlock(output: string): string | undefined {
  const brace = output.indexOf("{");
  const fences = [...output.matchAll(/```([a-zA-Z]*)[^\n]*\n/g)].filter((match) => brace < 0 || match.index < brace);
  const fence = fences.find((match) => match[1].toLowerCase() === "json") ?? fences[0];
  return fence === undefined ? undefined : output.slice(fence.index + fence[0].length);
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
