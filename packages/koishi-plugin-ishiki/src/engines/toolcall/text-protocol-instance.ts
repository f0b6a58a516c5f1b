import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4Middleware, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { generateId } from "@ai-sdk/provider-utils";
import { ToolcallEngineInstance } from "../toolcall-engine-instance.js";
import { ToolCatalog } from "./text-catalog.js";
import { TEXT_FORMATS, type TextProtocolName } from "./text-protocol-formats.js";
import { rewriteTextPrompt } from "./text-protocol-history.js";
import { liftToolResultMedia } from "./text-protocol-media.js";
import { ToolMarkupScanner, type ScanEvent } from "./text-scan.js";

export interface TextProtocolLogger {
  info(format: string, ...args: unknown[]): void;
}

type ToolCallPart = Extract<LanguageModelV4Content, { type: "tool-call" }>;

/**
 * Tool calls as protocol text (spec 06 EN-40) with our own parser: the contract and catalog go into the system
 * prompt, the native tool channel is emptied, the generated text is read into calls by `ToolMarkupScanner`
 * (streaming and generate run the same machine) and history is rewritten in the protocol's text shape. User
 * messages (attachments, file parts) pass unchanged and media of tool results move into a user message.
 * Markup naming a known tool that cannot be read becomes a call whose input is that markup: the SDK answers it
 * with an invalid-input result, which the history shows the model as the defect plus the expected format.
 */
export class TextProtocolToolcallInstance extends ToolcallEngineInstance {
  /** Tools per transformed call: `wrapStream`/`wrapGenerate` receive the very object `transformParams` returned. */
  private readonly catalogs = new WeakMap<LanguageModelV4CallOptions, ToolCatalog>();

  public constructor(
    public readonly protocol: TextProtocolName,
    private readonly logger: TextProtocolLogger,
  ) {
    super();
  }

  protected middleware(): LanguageModelV4Middleware {
    return {
      specificationVersion: "v4",
      transformParams: async ({ params }) => {
        const tools = (params.tools ?? []).filter((tool) => tool.type === "function");
        const catalog = new ToolCatalog(tools);
        const prompt = rewriteTextPrompt(liftToolResultMedia(params.prompt), TEXT_FORMATS[this.protocol], tools, catalog);
        const transformed: LanguageModelV4CallOptions = { ...params, prompt, tools: [], toolChoice: undefined };
        this.catalogs.set(transformed, catalog);
        return transformed;
      },
      wrapGenerate: async ({ doGenerate, params }) => {
        const result = await doGenerate();
        const catalog = this.catalogOf(params);
        const content = result.content.flatMap((part): LanguageModelV4Content[] => (part.type === "text" ? ToolMarkupScanner.scan(part.text, catalog).map((event) => this.contentOf(event)) : [part]));
        return { ...result, content, finishReason: withCalls(result.finishReason, content.some((part) => part.type === "tool-call")) };
      },
      wrapStream: async ({ doStream, params }) => {
        const result = await doStream();
        return { ...result, stream: result.stream.pipeThrough(this.reader(this.catalogOf(params))) };
      },
    };
  }

  private catalogOf(params: LanguageModelV4CallOptions): ToolCatalog {
    return this.catalogs.get(params) ?? new ToolCatalog((params.tools ?? []).filter((tool) => tool.type === "function"));
  }

  /** Reads every text block through its own scanner; calls close the text block they interrupt. */
  private reader(catalog: ToolCatalog): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
    const blocks = new Map<string, { scanner: ToolMarkupScanner; open: string | undefined; count: number }>();
    let called = false;
    const emit = (id: string, events: ScanEvent[], controller: TransformStreamDefaultController<LanguageModelV4StreamPart>): void => {
      const block = blocks.get(id);
      if (block === undefined) return;
      for (const event of events) {
        if (event.type === "text" || event.type === "unknown") {
          const text = event.type === "text" ? event.text : this.unknown(event);
          if (block.open === undefined) {
            block.open = block.count === 0 ? id : `${id}-${block.count}`;
            block.count += 1;
            controller.enqueue({ type: "text-start", id: block.open });
          }
          controller.enqueue({ type: "text-delta", id: block.open, delta: text });
          continue;
        }
        if (block.open !== undefined) controller.enqueue({ type: "text-end", id: block.open });
        block.open = undefined;
        called = true;
        controller.enqueue(this.contentOf(event) as ToolCallPart);
      }
    };
    const end = (id: string, controller: TransformStreamDefaultController<LanguageModelV4StreamPart>): void => {
      const block = blocks.get(id);
      if (block === undefined) return;
      emit(id, block.scanner.finish(), controller);
      if (block.open !== undefined) controller.enqueue({ type: "text-end", id: block.open });
      blocks.delete(id);
    };
    return new TransformStream({
      transform: (part, controller) => {
        if (part.type === "text-start") blocks.set(part.id, { scanner: new ToolMarkupScanner(catalog), open: undefined, count: 0 });
        else if (part.type === "text-delta") {
          if (!blocks.has(part.id)) blocks.set(part.id, { scanner: new ToolMarkupScanner(catalog), open: undefined, count: 0 });
          emit(part.id, blocks.get(part.id)?.scanner.push(part.delta) ?? [], controller);
        } else if (part.type === "text-end") end(part.id, controller);
        else if (part.type === "finish") {
          for (const id of [...blocks.keys()]) end(id, controller);
          controller.enqueue({ ...part, finishReason: withCalls(part.finishReason, called) });
        } else controller.enqueue(part);
      },
      // A stream that ends without `finish` still gives out what it held back.
      flush: (controller) => {
        for (const id of [...blocks.keys()]) end(id, controller);
      },
    });
  }

  private contentOf(event: ScanEvent): LanguageModelV4Content {
    if (event.type === "text") return { type: "text", text: event.text };
    if (event.type === "unknown") return { type: "text", text: this.unknown(event) };
    if (event.type === "call") return { type: "tool-call", toolCallId: generateId(), toolName: event.toolName, input: event.input };
    this.logger.info("%s: invalid call to %s returned to the model: %s", this.protocol, event.toolName, event.defect);
    return { type: "tool-call", toolCallId: generateId(), toolName: event.toolName, input: event.raw };
  }

  /** Markup on a tool the request does not offer stays text, with one log line naming the tool. */
  private unknown(event: Extract<ScanEvent, { type: "unknown" }>): string {
    this.logger.info("%s: markup names unknown tool %s; kept as text", this.protocol, event.toolName);
    return event.raw;
  }
}

function withCalls(reason: LanguageModelV4FinishReason, called: boolean): LanguageModelV4FinishReason {
  if (called && reason.unified === "stop") return { ...reason, unified: "tool-calls" };
  return reason;
}
