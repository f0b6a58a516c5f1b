import { z } from "zod";

const flag = { error: "expected a boolean" };
const words = z.array(z.string({ error: "expected a string" }), { error: "expected a list of strings" }).default([]);
const duration = z.number({ error: "expected a number" }).finite({ error: "expected a finite number" }).min(0, { error: "expected a number >= 0" });

/** `wakeup.standard` (spec 06 EN-26 .. EN-29) with its defaults. */
export const standardWakeupBlock = z.object({
  direct: z.boolean(flag).default(true),
  atSelf: z.boolean(flag).default(true),
  quoteSelf: z.boolean(flag).default(true),
  keywords: words,
  debounceMs: duration.default(1500),
  debounceMaxMs: duration.default(6000),
  cooldownMs: duration.default(0),
  maxTurnsPerHour: z.number({ error: "expected a number" }).int({ error: "expected an integer" }).min(0, { error: "expected a number >= 0" }).default(0),
  muteKeywords: words,
  muteMinutes: duration.default(30),
  unmuteKeywords: words,
  ignoreUsers: words,
});

/** The validated block the standard engine runs with. */
export type StandardWakeupOptions = z.output<typeof standardWakeupBlock>;
