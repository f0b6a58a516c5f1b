import type { LanguageModelV4CallOptions, LanguageModelV4Middleware } from "@ai-sdk/provider";
import { ToolcallEngineInstance } from "../toolcall-engine-instance.js";
import { liftToolResultMedia } from "./text-protocol-media.js";
import type { TextProtocolName, TextProtocolParser } from "./text-protocol-parser.js";
import { RawToolCallRecovery, toolCalls } from "./text-protocol-recovery.js";


const PRESETS = {
  hermes: "hermesToolMiddleware",
  "morph-xml": "morphXmlToolMiddleware",
  qwen3coder: "qwen3CoderToolMiddleware",
  "yaml-xml": "yamlXmlToolMiddleware",
} as const satisfies Record<TextProtocolName, keyof TextProtocolParser>;

type ParserMiddleware = Required<Pick<LanguageModelV4Middleware, "transformParams" | "wrapStream" | "wrapGenerate">>;

export interface TextProtocolLogger {
  debug(format: string, ...args: unknown[]): void;
}

/**
 * Tool calls as protocol text (spec 06 EN-40) through `@ai-sdk-tool/parser`: the contract and catalog go into
 * the system prompt, the native tool channel is emptied, the generated text is parsed (streaming) into calls and
 * history is rewritten in the protocol's text shape. User messages (attachments, file parts) pass unchanged and
 * media of tool results move into a user message (`liftToolResultMedia`). Malformed markup naming a tool becomes
 * a call with the raw markup as input (`RawToolCallRecovery`).
 */
export class TextProtocolToolcallInstance extends ToolcallEngineInstance {
  private readonly parser: ParserMiddleware;
  private readonly sessions = new WeakMap<object, RawToolCallRecovery>();

  public constructor(
    public readonly protocol: TextProtocolName,
    module: TextProtocolParser,
    private readonly logger: TextProtocolLogger,
  ) {
    super();
    // The parser is typed against the V3 middleware; at run time it works with AI SDK 7's V4 calls.
    this.parser = module[PRESETS[protocol]] as unknown as ParserMiddleware;
  }

  protected middleware(): LanguageModelV4Middleware {
    return {
      specificationVersion: "v4",
      transformParams: async (options) => this.parser.transformParams({ ...options, params: this.prepare(options.params) }),
      wrapStream: async (options) => {
        const result = await this.parser.wrapStream(options);
        const recovery = this.recoveryOf(options.params);
        return recovery === undefined ? result : { ...result, stream: result.stream.pipeThrough(recovery.stream()) };
      },
      wrapGenerate: async (options) => {
        const result = await this.parser.wrapGenerate(options);
        const recovery = this.recoveryOf(options.params);
        if (recovery === undefined) return result;
        const content = recovery.content(result.content);
        return { ...result, content, finishReason: recovery.recoveredAny ? toolCalls(result.finishReason) : result.finishReason };
      },
    };
  }

  /** Media out of tool results, and a per-call `onError` that collects malformed calls and logs at debug level. */
  private prepare(params: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
    const names = new Set((params.tools ?? []).filter((tool) => tool.type === "function").map((tool) => tool.name));
    const recovery = new RawToolCallRecovery(names);
    const onError = (message: string, metadata?: Record<string, unknown>): void => {
      const recovered = recovery.report(metadata);
      this.logger.debug("%s: %s%s", this.protocol, message, recovered ? " (returned to the model as an invalid call)" : "");
    };
    this.sessions.set(onError, recovery);
    const own = params.providerOptions?.toolCallMiddleware ?? {};
    return {
      ...params,
      prompt: liftToolResultMedia(params.prompt),
      providerOptions: { ...params.providerOptions, toolCallMiddleware: { ...own, emitRawToolCallTextOnError: true, onError } as unknown as Record<string, never> },
    };
  }

  private recoveryOf(params: LanguageModelV4CallOptions): RawToolCallRecovery | undefined {
    const onError = (params.providerOptions?.toolCallMiddleware as { onError?: unknown } | undefined)?.onError;
    return typeof onError === "function" ? this.sessions.get(onError) : undefined;
  }
}
