import type { Session } from "koishi";

/** `1234567` as `1,234,567`: token counts are read at a glance. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** An estimated cost with four decimals; the currency is whatever the model entries' prices are in. */
export function formatCost(value: number): string {
  return value.toFixed(4);
}

/** `HH:mm UTC` of a timestamp. */
export function formatUtcTime(at: number): string {
  return `${new Date(at).toISOString().slice(11, 16)} UTC`;
}

/** One dispose for a command and its locale texts. */
export function defineTexts(ctx: { i18n: { define(locale: string, dict: object): () => void } }, texts: Record<string, object>): () => void {
  const undo = Object.entries(texts).map(([locale, dict]) => ctx.i18n.define(locale, dict));
  return () => {
    for (const dispose of undo) dispose();
  };
}

/** `session.text` of `commands.<name>.messages.<key>`. */
export function textOf(session: Session, command: string) {
  return (key: string, params: unknown[] = []) => session.text(`commands.${command}.messages.${key}`, params);
}
