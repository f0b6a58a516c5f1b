/** `typing` (spec 08 KP-33), in milliseconds and characters per second. */
export interface TypingSettings {
  baseDelay: number;
  charPerSecond: number;
  minDelay: number;
  maxDelay: number;
}

export const DEFAULT_TYPING: TypingSettings = Object.freeze({ baseDelay: 500, charPerSecond: 5, minDelay: 800, maxDelay: 4000 });
export const DEFAULT_FAILOVER = Object.freeze({ backoffMs: 500, failoverOn: "unavailable" as const });

/** `textReply` (issue 20): what a turn that ends with plain text and no `send_message` does. */
export type TextReplyMode = "nudge" | "send" | "drop";
export const TEXT_REPLY_MODES: readonly TextReplyMode[] = ["nudge", "send", "drop"];
