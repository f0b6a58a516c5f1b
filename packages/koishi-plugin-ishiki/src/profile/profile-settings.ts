/** `typing` (spec 08 KP-33), in milliseconds and characters per second. */
export interface TypingSettings {
  baseDelay: number;
  charPerSecond: number;
  minDelay: number;
  maxDelay: number;
}

export const DEFAULT_TYPING: TypingSettings = Object.freeze({ baseDelay: 500, charPerSecond: 5, minDelay: 800, maxDelay: 4000 });
export const DEFAULT_FAILOVER = Object.freeze({ backoffMs: 500, failoverOn: "unavailable" as const });
