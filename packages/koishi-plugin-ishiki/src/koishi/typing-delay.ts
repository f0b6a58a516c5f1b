import h from "@satorijs/element";
import type { TypingSettings } from "../profile/index.js";

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The pause before a message that is not the first of one `send_message` (spec 08 KP-33): `baseDelay + 1000 ×
 * (cjk / charPerSecond + other / (1.5 × charPerSecond))` ms over the visible text (text nodes; whitespace not
 * counted), times a uniform factor in [0.8, 1.2], clamped to [minDelay, maxDelay]. Without text, or with
 * `charPerSecond ≤ 0`, it is `minDelay`.
 */
export function typingDelay(content: string, settings: TypingSettings, random: () => number = Math.random): number {
  const text = h.select(h.parse(content), "text").map((node) => String(node.attrs.content ?? "")).join("");
  let cjk = 0;
  let other = 0;
  for (const char of text) {
    if (/\s/.test(char)) continue;
    if (CJK.test(char)) cjk += 1;
    else other += 1;
  }
  const { baseDelay, charPerSecond, minDelay, maxDelay } = settings;
  if (charPerSecond <= 0 || cjk + other === 0) return minDelay;
  const raw = (baseDelay + 1000 * (cjk / charPerSecond + other / (1.5 * charPerSecond))) * (0.8 + 0.4 * random());
  return Math.min(maxDelay, Math.max(minDelay, raw));
}
