import { z } from "zod";

const number = (fallback: number, min?: number) => {
  const base = z.number({ error: "expected a number" }).finite({ error: "expected a finite number" });
  return (min === undefined ? base : base.min(min, { error: `expected a number >= ${min}` })).default(fallback);
};

/** `wakeup.v3` willingness (spec 06 EN-31) with its defaults. */
export const v3WakeupBlock = z.object({
  base: number(12),
  atMention: number(100),
  isQuote: number(15),
  isDirectMessage: number(40),
  keywords: z.array(z.string({ error: "expected a string" }), { error: "expected a list of strings" }).default([]),
  keywordMultiplier: number(1.2),
  defaultMultiplier: number(1),
  maxWillingness: number(100, 1),
  decayHalfLifeSeconds: number(600, 1),
  probabilityThreshold: number(55, 0),
  probabilityAmplifier: number(0.04, 0),
  replyCost: number(35, 0),
});

export type V3WakeupOptions = z.output<typeof v3WakeupBlock>;
