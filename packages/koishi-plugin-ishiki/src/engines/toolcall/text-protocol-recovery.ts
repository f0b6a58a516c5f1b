import type { LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4StreamPart } from "@ai-sdk/provider";

/** Markup the parser could not read, reported through its `onError` before it emits the markup as text. */
export interface RawToolCall {
  raw: string;
  toolName: string;
  toolCallId?: string;
}

/**
 * One model call's malformed tool calls (spec 06 EN-40). The parser reports each failure through `onError` and,
 * with `emitRawToolCallTextOnError`, then emits the markup as text; markup that names a known tool is turned
 * back into a call whose input is the raw markup, so the SDK answers it with an invalid-input result the model
 * can repair. Markup naming no known tool stays text.
 */
export class RawToolCallRecovery {
  private readonly pending: RawToolCall[] = [];
  private counter = 0;

  public constructor(private readonly tools: ReadonlySet<string>) {}

  /** The parser's `onError` metadata; returns whether it described a recoverable call. */
  public report(metadata: Record<string, unknown> | undefined): boolean {
    const raw = metadata?.toolCall;
    const toolName = metadata?.toolName;
    if (typeof raw !== "string" || raw === "" || typeof toolName !== "string" || !this.tools.has(toolName)) return false;
    this.pending.push({ raw, toolName, ...(typeof metadata?.toolCallId === "string" ? { toolCallId: metadata.toolCallId } : {}) });
    return true;
  }

  /** A stream transform that replaces emitted raw markup with calls and reports `tool-calls` when it did. */
  public stream(): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
    let recovered = false;
    return new TransformStream({
      transform: (part, controller) => {
        if (part.type === "text-delta") {
          for (const piece of this.split(part.delta)) {
            if (typeof piece === "string") controller.enqueue({ ...part, delta: piece });
            else {
              recovered = true;
              controller.enqueue(piece);
            }
          }
          return;
        }
        if (part.type === "finish" && recovered) controller.enqueue({ ...part, finishReason: toolCalls(part.finishReason) });
        else controller.enqueue(part);
      },
    });
  }

  /** The same for a generate result's content. */
  public content(content: LanguageModelV4Content[]): LanguageModelV4Content[] {
    return content.flatMap((part): LanguageModelV4Content[] => (part.type === "text" ? this.split(part.text).map((piece) => (typeof piece === "string" ? { ...part, text: piece } : piece)) : [part]));
  }

  /** Whether any markup was turned into a call so far: a generate result then reports `tool-calls`. */
  public get recoveredAny(): boolean {
    return this.counter > 0;
  }

  private split(text: string): Array<string | Extract<LanguageModelV4StreamPart, { type: "tool-call" }>> {
    const index = this.pending.findIndex((call) => text.includes(call.raw));
    if (index < 0) return text === "" ? [] : [text];
    const [call] = this.pending.splice(index, 1);
    const at = text.indexOf(call.raw);
    this.counter += 1;
    const part = { type: "tool-call" as const, toolCallId: call.toolCallId ?? `raw-${this.counter}`, toolName: call.toolName, input: call.raw };
    return [...(at > 0 ? [text.slice(0, at)] : []), part, ...this.split(text.slice(at + call.raw.length))];
  }
}

export function toolCalls(reason: LanguageModelV4FinishReason): LanguageModelV4FinishReason {
  return reason.unified === "stop" ? { ...reason, unified: "tool-calls" } : reason;
}
