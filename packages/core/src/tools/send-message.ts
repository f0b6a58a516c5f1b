import h from "@satorijs/element";
import { tool } from "ai";
import type { OutboundAddress, OutboundPort } from "./outbound-port.js";
import { crossSendMessageInputSchema, sendMessageInputSchema, sendMessageResultSchema, type SendMessageInput, type SendMessageResult } from "./send-message-schema.js";

export interface SendMessageToolOptions {
  port: OutboundPort;
  /** Cross mode requires `target`. */
  cross: boolean;
  /** Turns the optional target into an address; throws for a target outside the runtime's channels. */
  resolveTarget(target: SendMessageInput["target"]): OutboundAddress;
}

const DESCRIPTION = [
  "Send messages to the chat. This is the only way to reach users: your own text and reasoning are private.",
  "Messages go out in order, one platform message each. The turn ends after a successful send unless `continue: true`.",
].join(" ");

/**
 * `send_message` (spec 08 KP-30 .. KP-32): sends in order and stops at the first failure, reporting what was
 * sent. Sent messages are not stored as facts.
 */
export function createSendMessageTool(options: SendMessageToolOptions) {
  return tool({
    description: DESCRIPTION,
    inputSchema: options.cross ? crossSendMessageInputSchema : sendMessageInputSchema,
    outputSchema: sendMessageResultSchema,
    execute: async (input: SendMessageInput): Promise<SendMessageResult> => {
      const address = options.resolveTarget(input.target);
      const sent: string[] = [];
      for (const [index, message] of input.messages.entries()) {
        const content = input.mode === "raw" ? h.escape(message) : message;
        try {
          sent.push(...(await options.port.send(address, content)));
        } catch (error) {
          const { name, message: text } = error instanceof Error ? error : new Error(String(error));
          return { ok: false, error: { name, message: text }, sent, failedAt: index };
        }
      }
      return { ok: true, ids: sent };
    },
  });
}
