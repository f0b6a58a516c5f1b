import type { Logger } from "koishi";

type Level = "success" | "error" | "info" | "warn" | "debug";
const LEVELS: Level[] = ["success", "error", "info", "warn", "debug"];

/** A view of `logger` whose lines start with `[<prefix>] ` (spec 12 QA-1); level and name stay the base's. */
export function prefixLogger(logger: Logger, prefix: string): Logger {
  const view = Object.create(logger) as Logger;
  for (const level of LEVELS) {
    const base = logger[level].bind(logger) as (format: unknown, ...args: unknown[]) => void;
    Object.defineProperty(view, level, {
      value: (format: unknown, ...args: unknown[]) => base(`[%s] ${typeof format === "string" ? format : "%s"}`, prefix, ...(typeof format === "string" ? args : [format, ...args])),
    });
  }
  return view;
}
