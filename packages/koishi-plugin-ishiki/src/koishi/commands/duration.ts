const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Longest mute a duration may ask for: a year; longer ones are a typo more often than a wish. */
const MAX_MS = 366 * 86_400_000;

/** `10m`, `2h`, `1h30m`, `90s`, `1d` → milliseconds; undefined for anything else (no unit, zero, over a year). */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?[smhd])+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)) total += Number(amount) * UNITS[unit];
  return total > 0 && total <= MAX_MS ? Math.round(total) : undefined;
}
