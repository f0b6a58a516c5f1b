import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4StreamResult } from "@ai-sdk/provider";
import type { Candidate } from "./model-group.js";
import { withServedBy } from "./served-by.js";
import { PRELUDE } from "./stream-prelude.js";

/**
 * Opens a stream on one candidate and reads until its first semantic part. Anything that goes wrong before
 * it, including a stream that finishes or closes without content, throws so the caller may switch; from
 * then on the held parts and the rest pass through and errors reach the consumer as they are.
 */
export async function openStream(candidate: Candidate, options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
  const result = await candidate.model.doStream(options);
  const reader = result.stream.getReader();
  const held: LanguageModelV4StreamPart[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || value.type === "finish") throw new Error("stream ended without content");
      if (value.type === "error") throw value.error;
      held.push(value);
      if (!PRELUDE.has(value.type)) break;
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
  return { ...result, stream: passThrough(reader, held, candidate, options.abortSignal) };
}

function passThrough(
  reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>,
  held: LanguageModelV4StreamPart[],
  candidate: Candidate,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  const failed = () => {
    if (!signal?.aborted) candidate.failure();
  };
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      for (const part of held) controller.enqueue(part);
    },
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        failed();
        controller.error(error);
        return;
      }
      if (next.done) return controller.close();
      if (next.value.type === "error") failed();
      if (next.value.type !== "finish") return controller.enqueue(next.value);
      candidate.success();
      controller.enqueue({ ...next.value, providerMetadata: withServedBy(next.value.providerMetadata, candidate.id) });
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
