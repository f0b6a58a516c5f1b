import { z } from "zod";

const flag = { error: "expected a boolean" };
const words = z.array(z.string({ error: "expected a string" }), { error: "expected a list of strings" }).default([]);

/** `wakeup.judge` (spec 06 EN-35) with its defaults. */
export const judgeWakeupBlock = z.object({
  model: z.string({ error: "expected a model reference or group name" }).min(1, { error: "expected a model reference or group name" }).optional(),
  threshold: z.number({ error: "expected a number" }).min(0, { error: "expected a number in [0, 1]" }).max(1, { error: "expected a number in [0, 1]" }).default(0.5),
  cooldownMs: z.number({ error: "expected a number" }).min(0, { error: "expected a number >= 0" }).default(30_000),
  timeoutMs: z.number({ error: "expected a number" }).finite({ error: "expected a finite number" }).min(100, { error: "expected a number >= 100" }).default(8000),
  historyMessages: z.number({ error: "expected a number" }).int({ error: "expected an integer" }).min(1, { error: "expected an integer in 1..50" }).max(50, { error: "expected an integer in 1..50" }).default(8),
  instruction: z.string({ error: "expected a string" }).default(""),
  interests: words,
  rules: z
    .object({ direct: z.boolean(flag).default(true), atSelf: z.boolean(flag).default(true), quoteSelf: z.boolean(flag).default(true), keywords: words }, { error: "expected an object" })
    .default({ direct: true, atSelf: true, quoteSelf: true, keywords: [] }),
});

export type JudgeWakeupOptions = z.output<typeof judgeWakeupBlock>;
