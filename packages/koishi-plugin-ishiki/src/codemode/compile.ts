import { transform, type Message, type TransformFailure } from "esbuild";
import { codemodeErrors } from "./error-text.js";
import { originalLineTable } from "./source-map-lines.js";

/** The wrapper line before the model's program: it makes top-level `await` and `return` legal (CT-1, CT-11). */
const HEAD = "(async function (tools, console) {\n";
const TAIL = "\n})";

export type CompiledProgram =
  | {
      readonly ok: true;
      /** An async function expression taking `(tools, console)`. */
      readonly code: string;
      /** Generated line (1-based index) → the model's line (1-based), 0 when unknown. */
      readonly lines: Int32Array;
    }
  | { readonly ok: false; readonly error: string };

/** Recent compilations by program text: a retried or repeated program skips the transformer. */
const cache = new Map<string, CompiledProgram>();
const CACHE_SIZE = 64;

/** Strips TypeScript and checks syntax with esbuild's real parser; never a regex (CT-11). */
export async function compileProgram(js: string): Promise<CompiledProgram> {
  const cached = cache.get(js);
  if (cached) {
    cache.delete(js);
    cache.set(js, cached);
    return cached;
  }
  const compiled = await transpile(js);
  cache.set(js, compiled);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return compiled;
}

async function transpile(js: string): Promise<CompiledProgram> {
  let result;
  try {
    result = await transform(`${HEAD}${js}${TAIL}`, {
      loader: "ts",
      target: "es2022",
      sourcemap: "external",
      sourcefile: "program.ts",
      logLevel: "silent",
    });
  } catch (error) {
    const first = (error as Partial<TransformFailure>).errors?.[0];
    if (!first) throw error;
    return { ok: false, error: syntaxError(first, js) };
  }
  const table = originalLineTable((JSON.parse(result.map) as { mappings: string }).mappings);
  // The head is original line 0, so an original 0-based line is the model's 1-based line.
  const lines = table.map((line) => (line >= 1 ? line : 0));
  return { ok: true, code: result.code, lines };
}

function syntaxError(message: Message, js: string): string {
  const location = message.location;
  if (!location) return codemodeErrors.syntax(message.text, 1, 1);
  const modelLines = js.split("\n");
  // An error found in the closing wrapper means the model's text ended inside an open construct; the
  // wrapper's own characters would only confuse the message.
  if (location.line - 1 > modelLines.length) {
    const last = modelLines[modelLines.length - 1];
    return codemodeErrors.syntax("Unexpected end of program; close every bracket, brace and string", modelLines.length, last.length + 1);
  }
  const line = Math.max(location.line - 1, 1);
  // esbuild counts columns in UTF-8 bytes; the model counts characters.
  const column = Buffer.from(location.lineText).subarray(0, location.column).toString().length + 1;
  return codemodeErrors.syntax(message.text, line, column);
}
