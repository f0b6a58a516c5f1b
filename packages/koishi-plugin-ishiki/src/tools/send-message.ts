import h from "@satorijs/element";
import { tool } from "ai";
import type { OutboundAddress, OutboundPort } from "./outbound-port.js";
import {
  crossSendMessageInputSchema,
  sendMessageInputSchema,
  sendMessageResultSchema,
  type DroppedMedia,
  type SendMessageInput,
  type SendMessageResult,
} from "./send-message-schema.js";

/** One message after `prepare`: what the platform receives, and the media sources removed from it. */
export interface PreparedMessage {
  content: string;
  dropped: DroppedMedia[];
}

export interface SendMessageToolOptions {
  port: OutboundPort;
  /** Cross mode requires `target`. */
  cross: boolean;
  /** Turns the optional target into an address; throws for a target outside the runtime's channels. */
  resolveTarget(target: SendMessageInput["target"]): OutboundAddress;
  /** Rewrites one message before it is sent (media resolution, KP-31); an empty `content` is not sent. */
  prepare?(content: string): Promise<PreparedMessage>;
  /** Milliseconds to wait before each message of one call after the first one sent (typing, KP-33). */
  pause?(content: string): number;
}

const DESCRIPTION = [
  "Send messages to the chat. This is the only way to reach users: your own text and reasoning are private.",
  "Messages go out in order, one platform message each. The turn ends after a successful send unless `continue: true`.",
].join(" ");

/**
 * `send_message` (spec 08 KP-30 .. KP-33): prepares and sends in order, pausing before every message after the
 * first, and stops at the first failure, reporting what was sent; removed media sources are reported in
 * `dropped`. Sent messages are not stored as facts.
 */
export function createSendMessageTool(options: SendMessageToolOptions) {
  return tool({
    description: DESCRIPTION,
    inputSchema: options.cross ? crossSendMessageInputSchema : sendMessageInputSchema,
    outputSchema: sendMessageResultSchema,
    execute: async (input: SendMessageInput, { abortSignal }): Promise<SendMessageResult> => {
      const address = options.resolveTarget(input.target);
      const sent: string[] = [];
      const dropped: DroppedMedia[] = [];
      const withDropped = () => (dropped.length === 0 ? {} : { dropped });
      let sending = false;
      for (const [index, message] of input.messages.entries()) {
        try {
          const raw = input.mode === "raw" ? h.escape(message) : message;
          const prepared = options.prepare ? await options.prepare(raw) : { content: raw, dropped: [] };
          dropped.push(...prepared.dropped);
          if (prepared.content === "") continue;
          if (sending && options.pause) await typingPause(options.pause(prepared.content), abortSignal);
          sending = true;
          sent.push(...(await options.port.send(address, prepared.content)));
        } catch (error) {
          const { name, message: text } = error instanceof Error ? error : new Error(String(error));
          return { ok: false, error: { name, message: text }, sent, failedAt: index, ...withDropped() };
        }
      }
      return { ok: true, ids: sent, ...withDropped() };
    },
  });
}

/**
 * Waits out a typing pause, or rejects with the signal's reason once the turn aborts. It runs on the global timer
 * rather than node:timers/promises so that a test's clock controls it.
 */
function typingPause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
