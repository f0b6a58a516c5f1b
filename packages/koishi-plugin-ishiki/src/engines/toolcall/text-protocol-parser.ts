import type * as Parser from "@ai-sdk-tool/parser";

/** The `@ai-sdk-tool/parser` module, loaded on first use. */
export type TextProtocolParser = typeof Parser;

let loading: Promise<TextProtocolParser> | undefined;

/**
 * Loads `@ai-sdk-tool/parser` once per process (spec 08 KP-39). It is imported here rather than at the top of
 * the engine module so that a build where it cannot load fails only the profiles that select a text protocol,
 * at their runtime creation, and never the kernel. A failure is not cached: a later attempt may succeed.
 */
export function loadTextProtocolParser(): Promise<TextProtocolParser> {
  loading ??= import("@ai-sdk-tool/parser").catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The text tool-call protocols of spec 06 EN-40, by engine name. */
export type TextProtocolName = "hermes" | "morph-xml" | "qwen3coder" | "yaml-xml";

/** The toolcall engines that need the parser. */
export const TEXT_PROTOCOL_NAMES: readonly TextProtocolName[] = ["hermes", "morph-xml", "qwen3coder", "yaml-xml"];

/**
 * The parser for engine `engine`, or a one-line error: `toolcall.<engine>: @ai-sdk-tool/parser cannot load:
 * <reason>; use toolcall.engine: native`. Profile activation calls it up front (KP-39); `invoke` again.
 */
export async function requireTextProtocolParser(engine: string): Promise<TextProtocolParser> {
  try {
    return await loadTextProtocolParser();
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    throw new Error(`toolcall.${engine}: @ai-sdk-tool/parser cannot load: ${reason}; use toolcall.engine: native`);
  }
}
