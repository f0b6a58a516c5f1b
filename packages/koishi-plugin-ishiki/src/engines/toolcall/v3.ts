import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4Middleware, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { Context } from "koishi";
import { z } from "zod";
import type { ExtensionHost } from "../../extension/index.js";
import { validateBlock, type ValidatedBlock, type ValidatingEngine } from "../block-validation.js";
import { validateWithZod } from "../shared/index.js";
import { ToolcallEngine } from "../toolcall-engine.js";
import { ToolcallEngineInstance } from "../toolcall-engine-instance.js";
import { renderV3Catalog, V3_CONTRACT } from "./v3-contract.js";
import { rewriteV3Prompt } from "./v3-history.js";
import { parseV3Answer, type V3Answer } from "./v3-parse.js";

/** The note an answer that could not be parsed is kept with, so the model sees why nothing happened. */
export const V3_UNPARSED_NOTE = "[Note: the previous output could not be parsed as one fenced json block with thoughts and actions; nothing was done.]";

export interface V3Logger {
  debug(format: string, ...args: unknown[]): void;
}

/**
 * The v3 JSON action protocol (spec 06 EN-41). The native tool channel is emptied and the contract plus catalog
 * go into the system message; the answer is buffered until the model finishes, then read into a `<thoughts>`
 * text part and calls `v3-<n>` on registered tools (unknown names dropped). History is rewritten with
 * `<action>` / `<observation>` blocks.
 */
export class V3ToolcallInstance extends ToolcallEngineInstance {
  private counter = 0;
  /** Tool names per transformed call: `wrapStream` receives the very object `transformParams` returned. */
  private readonly toolsOf = new WeakMap<LanguageModelV4CallOptions, ReadonlySet<string>>();

  public constructor(private readonly logger: V3Logger) {
    super();
  }

  protected middleware(): LanguageModelV4Middleware {
    return {
      specificationVersion: "v4",
      transformParams: async ({ params }) => {
        const tools = (params.tools ?? []).filter((tool) => tool.type === "function");
        const transformed: LanguageModelV4CallOptions = { ...params, prompt: rewriteV3Prompt(params.prompt, `${V3_CONTRACT}\n\n${renderV3Catalog(tools)}`), tools: undefined, toolChoice: undefined };
        this.toolsOf.set(transformed, new Set(tools.map((tool) => tool.name)));
        return transformed;
      },
      wrapGenerate: async ({ doGenerate, params }) => {
        const result = await doGenerate();
        const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
        const content = [...result.content.filter((part) => part.type !== "text"), ...this.answer(text, params)];
        return { ...result, content, finishReason: finishReason(result.finishReason, content) };
      },
      wrapStream: async ({ doStream, params }) => {
        const result = await doStream();
        let text = "";
        const stream = result.stream.pipeThrough(
          new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
            transform: (part, controller) => {
              if (part.type === "text-delta") text += part.delta;
              else if (part.type === "finish") {
                const content = this.answer(text, params);
                for (const piece of content) for (const chunk of streamed(piece)) controller.enqueue(chunk);
                controller.enqueue({ ...part, finishReason: finishReason(part.finishReason, content) });
              } else if (part.type !== "text-start" && part.type !== "text-end") controller.enqueue(part);
            },
          }),
        );
        return { ...result, stream };
      },
    };
  }

  /** The buffered answer as content: thoughts, then the calls, or the raw text behind the unparsed note. */
  private answer(text: string, params: LanguageModelV4CallOptions): LanguageModelV4Content[] {
    if (text.trim() === "") return [];
    const parsed = parseV3Answer(text);
    if (parsed === undefined) {
      this.logger.debug("v3: answer could not be parsed (%d chars)", text.length);
      return [{ type: "text", text: `${V3_UNPARSED_NOTE}\n${text}` }];
    }
    const tools = this.toolsOf.get(params) ?? new Set<string>();
    const content: LanguageModelV4Content[] = [];
    const thoughts = renderThoughts(parsed);
    if (thoughts !== undefined) content.push({ type: "text", text: thoughts });
    for (const action of parsed.actions) {
      if (!tools.has(action.function)) {
        this.logger.debug("v3: dropped an action on unknown function %s", action.function);
        continue;
      }
      this.counter += 1;
      if ("defect" in action) {
        // Kept as its `<action>` markup (not JSON), so the SDK answers it as invalid and the history says why.
        this.logger.debug("v3: invalid action on %s returned to the model: %s", action.function, action.defect);
        content.push({ type: "tool-call", toolCallId: `v3-${this.counter}`, toolName: action.function, input: `<action>${action.raw}</action>` });
      } else content.push({ type: "tool-call", toolCallId: `v3-${this.counter}`, toolName: action.function, input: JSON.stringify(action.params) });
    }
    return content;
  }
}

function renderThoughts(answer: V3Answer): string | undefined {
  const entries = Object.entries(answer.thoughts ?? {}).filter(([, value]) => typeof value === "string" && value.trim() !== "");
  if (entries.length === 0) return undefined;
  return `<thoughts>\n${entries.map(([key, value]) => `${key}: ${value}`).join("\n")}\n</thoughts>`;
}

function streamed(part: LanguageModelV4Content): LanguageModelV4StreamPart[] {
  if (part.type === "text") return [{ type: "text-start", id: "v3" }, { type: "text-delta", id: "v3", delta: part.text }, { type: "text-end", id: "v3" }];
  return part.type === "tool-call" ? [part] : [];
}

function finishReason(reason: LanguageModelV4FinishReason, content: readonly LanguageModelV4Content[]): LanguageModelV4FinishReason {
  const calls = content.some((part) => part.type === "tool-call");
  if (calls && reason.unified === "stop") return { ...reason, unified: "tool-calls" };
  if (!calls && reason.unified === "tool-calls") return { ...reason, unified: "stop" };
  return reason;
}

/** `toolcall.v3`: the JSON action protocol; its block takes no settings. */
export class V3ToolcallEngine extends ToolcallEngine<"v3"> implements ValidatingEngine {
  public constructor(ctx: Context) {
    super(ctx, "v3");
  }

  public [validateBlock](block: unknown): ValidatedBlock {
    return validateWithZod("toolcall.v3", z.object({}), block);
  }

  public [ToolcallEngine.invoke](host: ExtensionHost): V3ToolcallInstance {
    return new V3ToolcallInstance(host.logger);
  }
}
